import Crypto
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire

/// A local receiver for Adyen's webhooks (127.0.0.1, a free port): it verifies each
/// notification's HMAC signature, passes every one to its listener (the log), and hands verified
/// AUTHORISATIONs to the payment waiting for them. With a sandbox it registers itself there.
public actor AdyenWebhookReceiver: AdyenWebhookSource {
    private let key: [UInt8]
    /// Where to register (`POST /sandbox/webhooks`); nil for `checkout listen`, where a tunnel points at it.
    private let sandboxURL: String?
    private let http: ProviderHTTPClient?
    private let server: LocalWebhookServer
    public private(set) var url: String?
    /// The sandbox's id for this receiver, to unregister it.
    private var registration: String?
    private var authorisations: [String: AdyenNotificationItem] = [:]
    private var waiters: [String: [UUID: CheckedContinuation<AdyenNotificationItem?, Never>]] = [:]
    private var listeners: [@Sendable (AdyenWebhookEvent) -> Void] = []

    public init(
        hmacKey: [UInt8], sandboxURL: String?, http: ProviderHTTPClient?, host: String = "127.0.0.1", port: Int = 0,
        onEvent: (@Sendable (AdyenWebhookEvent) -> Void)? = nil
    ) {
        key = hmacKey
        listeners = onEvent.map { [$0] } ?? []
        self.sandboxURL = sandboxURL
        self.http = http
        server = LocalWebhookServer(name: "adyen-webhooks", host: host, port: port)
    }

    /// Calls `listener` with every event from now on (the screen's Events log, `--json` lines).
    public func onEvent(_ listener: @escaping @Sendable (AdyenWebhookEvent) -> Void) {
        listeners.append(listener)
    }

    public func prepare() async throws(ProviderFailure) {
        guard url == nil else { return }
        let bound: String
        do { bound = try await start() } catch {
            throw ProviderFailure(kind: .unexpected, category: "WEBHOOKS", code: "RECEIVER_FAILED", detail: "the webhook receiver could not listen: \(error)")
        }
        url = bound
        guard let sandboxURL, let http else { return }
        let body = Data("{\"url\":\"\(bound)\"}".utf8)
        let request = ProviderRequest(
            method: "POST", url: sandboxURL + "/sandbox/webhooks", headers: [(name: "Content-Type", value: "application/json")], body: body)
        let response: ProviderResponse
        do throws(TransportFailure) { response = try await http.send(request, provider: "adyen") } catch {
            throw ProviderFailure.transport(error)
        }
        guard response.isSuccess else {
            throw ProviderFailure(
                kind: .integration, category: "WEBHOOKS", code: "REGISTRATION_REFUSED",
                detail: "the sandbox refused the webhook receiver (HTTP \(response.status)): "
                    + String(decoding: response.body.prefix(300), as: UTF8.self),
                httpStatus: response.status)
        }
        registration = (try? JSONDecoder().decode(Registration.self, from: response.body))?.id
    }

    private struct Registration: Decodable { let id: String }

    /// Unregisters from the sandbox (a shared one outlives this run). The server itself is
    /// left to end with the process: cancelling it while a delivery is being accepted traps in
    /// NIO ("Deinited NIOAsyncWriter without calling finish()", swift-nio#2813), and a late
    /// delivery is likely just then.
    public func close() async {
        guard let registration, let sandboxURL, let http else { return }
        self.registration = nil
        let request = ProviderRequest(method: "DELETE", url: sandboxURL + "/sandbox/webhooks/" + registration)
        _ = try? await http.send(request, provider: "adyen")
    }

    /// Starts serving; returns the URL to register.
    public func start() async throws -> String {
        if let url { return url }
        let bound = try await server.start { delivery in
            let accepted = await self.receive(delivery.body, signatureHeader: delivery.headers["hmacsignature"])
            return LocalWebhookServer.Answer(status: accepted ? .ok : .unauthorized, body: accepted ? "[accepted]" : "invalid signature")
        }
        url = bound
        return bound
    }

    /// Serves until stopped.
    public func wait() async {
        await server.wait()
    }

    /// Records a webhook; true when every signature in it checked out.
    func receive(_ data: Data, signatureHeader: String?) -> Bool {
        switch AdyenWebhookBody.read(data) {
        case .standard(let items):
            var allValid = true
            for item in items {
                let valid = AdyenHMAC.isValid(item, key: key)
                allValid = allValid && valid
                record(AdyenWebhookEvent(
                    receivedAt: Date(), eventCode: item.eventCode, pspReference: item.pspReference, success: item.succeeded, signatureValid: valid,
                    reason: item.reason))
                if valid, item.eventCode == "AUTHORISATION" { deliver(item) }
            }
            // Adyen resends what is not acknowledged; a forged one is refused instead.
            return allValid
        case .token(let token):
            let valid = signatureHeader.map { Self.isValidBodySignature($0, body: data, key: key) } ?? false
            record(AdyenWebhookEvent(
                receivedAt: Date(), eventCode: token.type, pspReference: nil, success: nil, signatureValid: valid,
                storedPaymentMethodID: token.data.storedPaymentMethodId))
            return valid
        case nil:
            record(AdyenWebhookEvent(receivedAt: Date(), eventCode: "unreadable", signatureValid: false, reason: "not an Adyen notification"))
            return false
        }
    }

    /// Token webhooks are signed over the raw body, in the `hmacsignature` header.
    static func isValidBodySignature(_ signature: String, body: Data, key: [UInt8]) -> Bool {
        guard let given = Data(base64Encoded: signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: body, using: SymmetricKey(data: key))
    }

    private func record(_ event: AdyenWebhookEvent) {
        for listener in listeners { listener(event) }
    }

    private func deliver(_ item: AdyenNotificationItem) {
        authorisations[item.pspReference] = item
        for (_, waiter) in waiters.removeValue(forKey: item.pspReference) ?? [:] { waiter.resume(returning: item) }
    }

    public func authorisation(for pspReference: String, timeout: Duration) async -> AdyenNotificationItem? {
        if let item = authorisations[pspReference] { return item }
        let id = UUID()
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.expire(id, pspReference: pspReference)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            waiters[pspReference, default: [:]][id] = continuation
        }
    }

    private func expire(_ id: UUID, pspReference: String) {
        waiters[pspReference]?.removeValue(forKey: id)?.resume(returning: nil)
    }
}
