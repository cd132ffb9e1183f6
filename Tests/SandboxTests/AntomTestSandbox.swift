import CheckoutApp
import Foundation
import Hummingbird
import ProviderClients
import ProviderWire
import Sandbox
import Synchronization
import _CryptoExtras

/// A sandbox serving the built-in providers plus `AntomSandbox(id: "antom")` on 127.0.0.1 port 0
/// (with a manual clock unless `clock` is nil), and helpers to call it as Antom's clients do:
/// every request signed with the test client's key, every answer's signature checkable.
struct AntomTestSandbox: Sendable {
    static let clientID = AntomSandboxCredentials.clientID
    static let createPath = "/ams/sandbox/api/v1/payments/createPaymentSession"
    static let inquiryPath = "/ams/sandbox/api/v1/payments/inquiryPayment"

    let sandbox: RunningSandbox
    let clock: ManualClock?

    var baseURL: String { sandbox.baseURL }
    var now: Date { clock?.now ?? Date() }

    static func with<T: Sendable>(
        clock: ManualClock? = ManualClock(), timeScale: Double = 1, requestLifetime: TimeInterval = 3_600, webhookAttempts: Int = 3,
        limits: SandboxLimits = SandboxLimits(), _ body: (AntomTestSandbox) async throws -> T
    ) async throws -> T {
        var settings = SandboxSettings(requestLifetime: requestLifetime)
        if let clock { settings.now = clock.clock }
        settings.timeScale = timeScale
        settings.webhookAttempts = webhookAttempts
        settings.webhookRetryDelay = 0.05
        settings.limits = limits
        // The registry may serve Antom itself one day: this test's provider replaces it.
        let providers = await ProviderRegistry.builtIn.sandboxProviders(settings).filter { $0.id != "antom" } + [await AntomSandbox(id: "antom", settings: settings)]
        let sandbox = try await SandboxServer(settings: settings, providers: providers).start(host: "127.0.0.1", port: 0)
        do {
            let result = try await body(AntomTestSandbox(sandbox: sandbox, clock: clock))
            await sandbox.stop()
            return result
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    static let clientKey: _RSA.Signing.PrivateKey = try! AntomSignature.privateKey(AntomSandboxCredentials.clientPrivateKey)
    static let sandboxPublicKey: _RSA.Signing.PublicKey = try! AntomSignature.publicKey(AntomSandboxCredentials.sandboxPublicKey)

    private var http: ProviderHTTPClient {
        ProviderHTTPClient(timeout: .seconds(30), retryPolicy: RetryPolicy(maxAttempts: 1, baseDelay: .milliseconds(1)))
    }

    /// A signed API call: `body` signed as `clientID` with `key` (the test client's by default);
    /// `sent` replaces the bytes sent after signing (a tampered body), nil headers are left out.
    func api(
        _ path: String, _ body: Data, clientID: String? = AntomTestSandbox.clientID, key: _RSA.Signing.PrivateKey = AntomTestSandbox.clientKey,
        time: String = "2026-11-22T10:00:00+00:00", sign: Bool = true, sent: Data? = nil, signature: String? = nil
    ) async throws -> ProviderResponse {
        var headers: [(name: String, value: String)] = [(name: "Content-Type", value: "application/json; charset=UTF-8"), (name: "Request-Time", value: time)]
        if let clientID {
            headers.append((name: "client-id", value: clientID))
            if let signature {
                // Made elsewhere (the official SDK's signature_tool).
                headers.append((name: "Signature", value: AntomSignature.header(signature: signature)))
            } else if sign {
                let content = AntomSignature.content(method: "POST", path: path, clientID: clientID, time: time, body: body)
                headers.append((name: "Signature", value: AntomSignature.header(signature: try AntomSignature.sign(content, with: key))))
            }
        }
        return try await http.send(ProviderRequest(method: "POST", url: baseURL + path, headers: headers, body: sent ?? body), provider: "test")
    }

    func api(_ path: String, json: [String: Any], clientID: String? = AntomTestSandbox.clientID) async throws -> ProviderResponse {
        try await api(path, try JSONSerialization.data(withJSONObject: json), clientID: clientID)
    }

    /// createPaymentSession with `body`: the answer's JSON, after checking its signature.
    func create(_ body: [String: Any]) async throws -> [String: Any] {
        let response = try await api(Self.createPath, json: body)
        try Self.requireVerified(response, path: Self.createPath)
        return try Self.object(response)
    }

    /// inquiryPayment: the answer's JSON, after checking its signature.
    func inquire(paymentRequestId: String? = nil, paymentId: String? = nil) async throws -> [String: Any] {
        var body: [String: Any] = [:]
        if let paymentRequestId { body["paymentRequestId"] = paymentRequestId }
        if let paymentId { body["paymentId"] = paymentId }
        let response = try await api(Self.inquiryPath, json: body)
        try Self.requireVerified(response, path: Self.inquiryPath)
        return try Self.object(response)
    }

    /// One of the sandbox's own routes (cashier, control routes, ledger, clients).
    func control(_ method: String, _ path: String, _ json: Any? = nil, headers: [(name: String, value: String)] = []) async throws -> ProviderResponse {
        let body = json.map { try! JSONSerialization.data(withJSONObject: $0) }
        return try await http.send(
            ProviderRequest(method: method, url: baseURL + path, headers: [(name: "Content-Type", value: "application/json")] + headers, body: body),
            provider: "test")
    }

    /// The customer pays (`pay`), fails or leaves (`abandon`) session `id`: the control route's answer.
    func act(_ action: String, _ sessionID: String, bank: String? = nil) async throws -> ProviderResponse {
        try await control("POST", "/sandbox/antom/cashier/\(sessionID)/\(action)" + (bank.map { "?bank=\($0)" } ?? ""))
    }

    func ledger(_ section: String) async throws -> [[String: Any]] {
        try Self.object(try await control("GET", "/sandbox/ledger"))[section] as? [[String: Any]] ?? []
    }

    /// A valid createPaymentSession body: 150.00 THB by default, bank-country:TH.
    static func session(
        _ requestID: String = "req-\(UUID().uuidString.prefix(8))", order: String = "order-\(UUID().uuidString.prefix(8))", value: Int = 15_000,
        currency: String = "THB", mode: AntomDisplayMode = .bankCountry("TH"), notifyURL: String? = nil, extra: [String: Any] = [:]
    ) -> [String: Any] {
        var body: [String: Any] = [
            "productCode": "CASHIER_PAYMENT", "paymentRequestId": requestID,
            "paymentAmount": ["currency": currency, "value": String(value)],
            "order": ["referenceOrderId": order, "orderDescription": "Terminal checkout", "orderAmount": ["currency": currency, "value": String(value)]],
            "paymentMethod": ["paymentMethodType": "BANK", "paymentMethodMetaData": mode.metaData],
            "paymentRedirectUrl": "https://shop.example/return", "settlementStrategy": ["settlementCurrency": "USD"],
        ]
        if let notifyURL { body["paymentNotifyUrl"] = notifyURL }
        body.merge(extra) { $1 }
        return body
    }

    // MARK: - Reading answers

    static func object(_ response: ProviderResponse) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
        return object
    }

    static func result(_ object: [String: Any]) -> [String: Any] { object["result"] as? [String: Any] ?? [:] }

    static func header(_ name: String, in response: ProviderResponse) -> String? {
        response.headers.first { $0.name == name }?.value
    }

    /// Whether the answer carries lowercase `client-id`, `response-time` and `signature` headers
    /// and the signature verifies with the sandbox's public key over `"POST <path>\n<client-id>.<response-time>.<body>"`.
    static func isVerified(_ response: ProviderResponse, path: String) -> Bool {
        guard let client = header("client-id", in: response), let time = header("response-time", in: response),
            let signature = header("signature", in: response).flatMap(AntomSignature.signatureValue(ofHeader:))
        else { return false }
        let content = AntomSignature.content(method: "POST", path: path, clientID: client, time: time, body: response.body)
        return AntomSignature.verify(signature, of: content, with: sandboxPublicKey)
    }

    static func requireVerified(_ response: ProviderResponse, path: String) throws {
        guard response.status == 200, isVerified(response, path: path) else {
            throw AntomTestError("answer to \(path) is not a verified 200: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
    }
}

struct AntomTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A merchant's notification endpoint on 127.0.0.1 port 0 (a `StubHTTPServer`): it keeps every
/// notification and answers each as `reply` says (by default Antom's acknowledgement).
final class AntomNotifyReceiver: Sendable {
    struct Delivery: Sendable {
        let path: String
        let headers: [String: String]
        let body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
    }

    static let acknowledgement = #"{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"}}"#

    let url: String
    private let box: Box
    private let stopper: @Sendable () async -> Void

    private init(url: String, box: Box, stop: @escaping @Sendable () async -> Void) {
        self.url = url
        self.box = box
        stopper = stop
    }

    /// Starts a receiver; `reply` gets the call number (from 1) and answers status and body.
    static func start(reply: @escaping @Sendable (Int) -> (Int, String) = { _ in (200, acknowledgement) }) async throws -> AntomNotifyReceiver {
        let router = Router()
        let box = Box()
        router.post("antom/notify") { request, _ -> Response in
            let data = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let call = box.record(Delivery(path: request.uri.path, headers: headers, body: data))
            let (status, body) = reply(call)
            return Response(
                status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        let (base, stop) = await StubHTTPServer.start(router, label: "antom-notify-receiver")
        return AntomNotifyReceiver(url: base + "/antom/notify", box: box, stop: stop)
    }

    /// Every notification received, acknowledged or not.
    var deliveries: [Delivery] { box.deliveries.withLock { $0 } }

    /// Waits (up to `timeout` seconds) until `condition` holds for what was received.
    func wait(timeout: Double = 10, until condition: ([Delivery]) -> Bool) async -> [Delivery] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let now = deliveries
            if condition(now) { return now }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return deliveries
    }

    func stop() async { await stopper() }

    /// Runs `body` with a receiver, stopping it afterwards whatever happens.
    static func with<T: Sendable>(
        reply: @escaping @Sendable (Int) -> (Int, String) = { _ in (200, acknowledgement) }, _ body: (AntomNotifyReceiver) async throws -> T
    ) async throws -> T {
        let receiver = try await start(reply: reply)
        do {
            let result = try await body(receiver)
            await receiver.stop()
            return result
        } catch {
            await receiver.stop()
            throw error
        }
    }

    /// The deliveries, shared between the route and the receiver.
    private final class Box: Sendable {
        let deliveries = Mutex<[Delivery]>([])

        func record(_ delivery: Delivery) -> Int {
            deliveries.withLock { list in
                list.append(delivery)
                return list.count
            }
        }
    }
}

extension AntomNotifyReceiver.Delivery {
    /// Whether its `signature` verifies with `key` (the sandbox's public key by default) over
    /// `"POST <path>\n<client-id>.<request-time>.<body>"`.
    func isSigned(by key: _RSA.Signing.PublicKey = AntomTestSandbox.sandboxPublicKey) -> Bool {
        guard let client = headers["client-id"], let time = headers["request-time"],
            let signature = headers["signature"].flatMap(AntomSignature.signatureValue(ofHeader:))
        else { return false }
        return AntomSignature.verify(signature, of: AntomSignature.content(method: "POST", path: path, clientID: client, time: time, body: body), with: key)
    }
}
