import Foundation
import ProviderClients
import Sandbox
import TestSupport

/// A sandbox serving Cash App, Afterpay and Adyen on 127.0.0.1 port 0, with short webhook
/// timings, and helpers to call it as Adyen's clients do.
struct AdyenTestSandbox: Sendable {
    static let apiKey = "AQEtestkey"
    static let merchant = "TestMerchantECOM"

    let sandbox: RunningSandbox
    /// How long a Received payment waits for its decision here.
    static let asyncResultDelay = 0.05

    var baseURL: String { sandbox.baseURL }

    static func with<T: Sendable>(
        hmacKey: String? = nil, webhookAttempts: Int = 3, _ body: (AdyenTestSandbox) async throws -> T
    ) async throws -> T {
        var settings = SandboxSettings()
        settings.adyen.asyncResultDelay = asyncResultDelay
        settings.webhookRetryDelay = 0.05
        settings.webhookAttempts = webhookAttempts
        settings.adyen.hmacKey = hmacKey
        return try await SandboxServer.withRunning(settings) { sandbox in try await body(AdyenTestSandbox(sandbox: sandbox)) }
    }

    private var http: ProviderHTTPClient {
        ProviderHTTPClient(timeout: .seconds(30), retryPolicy: RetryPolicy(maxAttempts: 1, baseDelay: .milliseconds(1)))
    }

    /// An Adyen API call: `X-API-Key` (lower-case, as the Python library sends it) unless nil.
    func adyen(
        _ method: String, _ path: String, _ json: Any? = nil, apiKey: String? = AdyenTestSandbox.apiKey, idempotencyKey: String? = nil,
        rawBody: String? = nil
    ) async throws -> ProviderResponse {
        var headers: [(name: String, value: String)] = [(name: "Content-Type", value: "application/json")]
        if let apiKey { headers.append((name: "x-api-key", value: apiKey)) }
        if let idempotencyKey { headers.append((name: "idempotency-key", value: idempotencyKey)) }
        let body = rawBody.map { Data($0.utf8) } ?? json.map { try! JSONSerialization.data(withJSONObject: $0) }
        return try await http.send(ProviderRequest(method: method, url: baseURL + path, headers: headers, body: body), provider: "test")
    }

    /// One of the sandbox's own routes (customer requests, control routes, webhooks).
    func control(_ method: String, _ path: String, _ json: Any? = nil, headers: [(name: String, value: String)] = []) async throws -> ProviderResponse {
        let body = json.map { try! JSONSerialization.data(withJSONObject: $0) }
        return try await http.send(
            ProviderRequest(method: method, url: baseURL + path, headers: [(name: "Content-Type", value: "application/json")] + headers, body: body),
            provider: "test")
    }

    /// A customer request with `actions`, approved by the simulated customer: its JSON.
    func approvedRequest(_ actions: [[String: Any]], approve: Bool = true) async throws -> [String: Any] {
        let created = try await control(
            "POST", "/customer-request/v1/requests",
            ["idempotency_key": UUID().uuidString, "request": ["actions": actions, "channel": "ONLINE", "redirect_url": "https://shop.example/return"]],
            headers: [(name: "Authorization", value: "Client \(AdyenCashAppConfiguration.clientID)")])
        let id = (try Self.object(created)["request"] as! [String: Any])["id"] as! String
        guard approve else { return try Self.object(created)["request"] as! [String: Any] }
        let approved = try await control("POST", "/sandbox/customer-requests/\(id)/approve", [String: String]())
        return try Self.object(approved)["request"] as! [String: Any]
    }

    static func oneTime(_ value: Int, currency: String = "USD") -> [String: Any] {
        ["type": "ONE_TIME_PAYMENT", "scope_id": AdyenCashAppConfiguration.scopeID, "amount": value, "currency": currency]
    }

    static var onFile: [String: Any] { ["type": "ON_FILE_PAYMENT", "scope_id": AdyenCashAppConfiguration.scopeID, "account_reference_id": "shopper-1"] }

    /// The ONE_TIME grant of a fresh approved request for `value` cents.
    func grant(_ value: Int) async throws -> String {
        let request = try await approvedRequest([Self.oneTime(value)])
        return ((request["grants"] as! [[String: Any]])[0]["id"] as! String)
    }

    static func payment(_ value: Int, _ method: [String: Any], reference: String = "order-1", extra: [String: Any] = [:]) -> [String: Any] {
        var body: [String: Any] = [
            "amount": ["currency": "USD", "value": value], "merchantAccount": merchant, "reference": reference,
            "returnUrl": "https://shop.example/return", "paymentMethod": ["type": "cashapp"].merging(method) { $1 },
        ]
        body.merge(extra) { $1 }
        return body
    }

    /// Pays `value` with a fresh grant: the payment's JSON.
    func pay(_ value: Int, idempotencyKey: String? = nil) async throws -> [String: Any] {
        let grant = try await grant(value)
        return try Self.object(try await adyen("POST", "/v71/payments", Self.payment(value, ["grantId": grant]), idempotencyKey: idempotencyKey))
    }

    func registerReceiver(_ receiver: AdyenWebhookReceiver) async throws {
        let response = try await control("POST", "/sandbox/webhooks", ["url": receiver.url])
        precondition(response.status == 201, "registering the receiver answered \(response.status)")
    }

    func ledger() async throws -> [String: Any] { try Self.object(try await control("GET", "/sandbox/ledger")) }

    static func object(_ response: ProviderResponse) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }
}
