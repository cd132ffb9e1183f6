import ProviderWire
import Foundation
import ProviderClients
import Sandbox
import TestSupport

/// A sandbox serving Cash App, Afterpay, Adyen and Square on 127.0.0.1 port 0 (Square beside
/// Afterpay's `/v2/`, as `checkout sandbox` serves them) with a manual clock, and helpers to call
/// it as Square's clients do.
struct SquareTestSandbox: Sendable {
    static let token = "EAAAsandbox-test-token"
    static let version = "2026-09-16"

    let sandbox: RunningSandbox
    let clock: ManualClock

    var baseURL: String { sandbox.baseURL }

    static func with<T: Sendable>(
        timeScale: Double = 1, limits: SandboxLimits = SandboxLimits(), _ body: (SquareTestSandbox) async throws -> T
    ) async throws -> T {
        let clock = ManualClock()
        var settings = SandboxSettings(now: clock.clock)
        settings.timeScale = timeScale
        settings.limits = limits
        return try await SandboxServer.withRunning(settings) { sandbox in try await body(SquareTestSandbox(sandbox: sandbox, clock: clock)) }
    }

    private var http: ProviderHTTPClient {
        ProviderHTTPClient(timeout: .seconds(30), retryPolicy: RetryPolicy(maxAttempts: 1, baseDelay: .milliseconds(1)))
    }

    /// A Square API call: `Authorization: Bearer <token>` and `Square-Version` unless nil.
    func square(
        _ method: String, _ path: String, _ json: Any? = nil, token: String? = SquareTestSandbox.token, version: String? = SquareTestSandbox.version,
        rawBody: String? = nil
    ) async throws -> ProviderResponse {
        var headers: [(name: String, value: String)] = [(name: "Content-Type", value: "application/json")]
        if let token { headers.append((name: "Authorization", value: "Bearer \(token)")) }
        if let version { headers.append((name: "Square-Version", value: version)) }
        let body = rawBody.map { Data($0.utf8) } ?? json.map { try! JSONSerialization.data(withJSONObject: $0) }
        return try await http.send(ProviderRequest(method: method, url: baseURL + path, headers: headers, body: body), provider: "test")
    }

    /// One of the sandbox's own routes (ledger, faults, receipts).
    func control(_ method: String, _ path: String, _ json: Any? = nil) async throws -> ProviderResponse {
        let body = json.map { try! JSONSerialization.data(withJSONObject: $0) }
        return try await http.send(
            ProviderRequest(method: method, url: baseURL + path, headers: [(name: "Content-Type", value: "application/json")], body: body), provider: "test")
    }

    /// A CreatePayment body: 45.05 USD with `source`, a fresh key unless given, and `extra`.
    static func create(_ source: String = "cnon:card-nonce-ok", amount: Int = 4505, key: String = UUID().uuidString, extra: [String: Any] = [:]) -> [String: Any] {
        var body: [String: Any] = ["source_id": source, "idempotency_key": key, "amount_money": ["amount": amount, "currency": "USD"]]
        body.merge(extra) { $1 }
        return body
    }

    /// Creates a payment; its status code and the `payment` of the answer.
    func pay(_ body: [String: Any]) async throws -> (status: Int, payment: [String: Any]) {
        let response = try await square("POST", "/v2/payments", body)
        return (response.status, try Self.object(response)["payment"] as? [String: Any] ?? [:])
    }

    func payment(_ id: String) async throws -> [String: Any] {
        try Self.object(try await square("GET", "/v2/payments/\(id)"))["payment"] as? [String: Any] ?? [:]
    }

    func ledger() async throws -> [String: Any] { try Self.object(try await control("GET", "/sandbox/ledger")) }

    /// The ledger's rows in `section`.
    func ledger(_ section: String) async throws -> [[String: Any]] { try await ledger()[section] as? [[String: Any]] ?? [] }

    static func object(_ response: ProviderResponse) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
        return object
    }

    /// The first error of an error answer.
    static func error(_ response: ProviderResponse) throws -> [String: Any] {
        (try object(response)["errors"] as? [[String: Any]])?.first ?? [:]
    }
}

extension SquareTestSandbox {
    /// A payment's RFC 3339 time field as a date.
    static func date(_ payment: [String: Any], _ key: String) throws -> Date {
        guard let text = payment[key] as? String, let date = ISO8601Milliseconds.date(from: text) else { throw CocoaError(.coderValueNotFound) }
        return date
    }
}
