import Foundation

/// The embedded sandbox's own control API: the simulated customer's approve and decline, and
/// faults. Never retried: each call is someone's deliberate act.
public struct SandboxControlClient: Sendable {
    public static let provider = "sandbox"

    public let baseURL: String
    public let http: ProviderHTTPClient
    /// Whether `http` sends a control token to this sandbox, for the message when it refuses one.
    public let sendsToken: Bool

    public init(baseURL: String, http: ProviderHTTPClient, sendsToken: Bool = false) {
        self.baseURL = baseURL
        self.http = http
        self.sendsToken = sendsToken
    }

    /// Approve or decline the request; abandon leaves the provider's page unpaid (Antom's bank).
    public enum CustomerDecision: String, Sendable { case approve, decline, abandon }

    /// Adds a fault ('METHOD PATH-PREFIX KIND[*N]') to the sandbox's plan, owned by `owner`
    /// (a run id) so `removeFaults(owner:)` can take back what is left of it; without an owner
    /// the fault stays until the sandbox's faults are deleted.
    public func inject(fault spec: String, owner: String? = nil) async throws(SandboxControlFailure) {
        var fields = ["fault": spec]
        if let owner { fields["owner"] = owner }
        try await call("POST", "/sandbox/faults", headers: [], body: fields) { (response) throws(SandboxControlFailure) in
            guard response.isSuccess else { throw Self.rejected(response) }
        }
    }

    /// Removes the pending faults `owner` added; answers how many there were.
    public func removeFaults(owner: String) async throws(SandboxControlFailure) -> Int {
        struct Removal: Decodable { let removed: Int }
        let encoded = owner.addingPercentEncoding(withAllowedCharacters: Self.queryValueAllowed) ?? owner
        return try await call("DELETE", "/sandbox/faults?owner=\(encoded)") { (response) throws(SandboxControlFailure) -> Int in
            guard response.isSuccess else { throw Self.rejected(response) }
            do { return try JSONDecoder().decode(Removal.self, from: response.body).removed } catch {
                throw .undecodable(status: response.status, detail: "\(error)")
            }
        }
    }

    /// Acts as the customer on attempt `id`, whichever provider's it is; only success matters.
    public func act(_ decision: CustomerDecision, on id: String) async throws(SandboxControlFailure) {
        try await act(decision, on: id) { (response) throws(SandboxControlFailure) in
            guard response.isSuccess else { throw .strict(response) }
        }
    }

    /// Acts as the customer on attempt `id`, reading the answer with `read`.
    public func act<Answer>(
        _ decision: CustomerDecision, on id: String, read: (ProviderResponse) throws(SandboxControlFailure) -> Answer
    ) async throws(SandboxControlFailure) -> Answer {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: Self.queryValueAllowed) ?? id
        return try await call("POST", "/sandbox/customer-requests/\(escaped)/\(decision.rawValue)", read: read)
    }

    /// Characters a query value may carry unescaped.
    private static let queryValueAllowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// One attempt; a body goes as `Content-Type: application/json` alone, else `Accept`.
    private func call<Answer>(
        _ method: String, _ path: String, headers: [ProviderHTTPClient.Header] = [(name: "Accept", value: "application/json")],
        body: [String: String]? = nil, read: (ProviderResponse) throws(SandboxControlFailure) -> Answer
    ) async throws(SandboxControlFailure) -> Answer {
        try await http.jsonCall(
            method, url: baseURL + path, headers: headers, body: body, encoder: ProviderHTTPClient.jsonEncoder([.sortedKeys]),
            provider: Self.provider, policy: .never, shouldRetry: { _ in false }
        ) { (response) throws(SandboxControlFailure) -> Answer in
            // The sandbox's control routes answer 401 for one reason: the control token.
            if response.status == 401 { throw controlTokenRefused() }
            return try read(response)
        }
    }

    /// A 401 from the control routes, as the user can act on it.
    private func controlTokenRefused() -> SandboxControlFailure {
        let detail =
            sendsToken
            ? "the sandbox at \(baseURL) did not accept the control token given (--sandbox-token-file, the profile's "
                + "sandbox_control_token or \(Self.tokenEnvironmentKey)): give the one `checkout sandbox` was started with"
            : "the sandbox at \(baseURL) needs a control token: pass --sandbox-token-file or set \(Self.tokenEnvironmentKey)"
        return .api(status: 401, body: SandboxControlErrorBody(errors: [
            .init(category: "AUTHENTICATION_ERROR", code: sendsToken ? Self.tokenRejected : Self.tokenRequired, detail: detail)
        ]))
    }

    static let tokenEnvironmentKey = "CHECKOUT_SANDBOX_CONTROL_TOKEN"
    static let tokenRequired = "CONTROL_TOKEN_REQUIRED"
    static let tokenRejected = "CONTROL_TOKEN_REJECTED"

    /// A refused fault request, its whole body kept as the detail.
    private static func rejected(_ response: ProviderResponse) -> SandboxControlFailure {
        .api(status: response.status, body: SandboxControlErrorBody(errors: [
            .init(category: "SANDBOX", code: "FAULT_REJECTED", detail: String(decoding: response.body, as: UTF8.self)),
        ]))
    }
}
