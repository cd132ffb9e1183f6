import Foundation
import ProviderWire

/// The embedded sandbox's own control API: the simulated customer's approve and decline.
public struct SandboxControlClient: Sendable {
    public static let provider = "sandbox"

    public let baseURL: String
    public let http: ProviderHTTPClient

    public init(baseURL: String, http: ProviderHTTPClient) {
        self.baseURL = baseURL
        self.http = http
    }

    /// Approve or decline the request; abandon leaves the provider's page unpaid (Antom's bank).
    public enum CustomerDecision: String, Sendable { case approve, decline, abandon }

    /// What the simulated customer's action did.
    public struct Outcome: Decodable, Sendable {
        public let request: CustomerRequest
        public let sandboxDeclineReason: String?
        enum CodingKeys: String, CodingKey { case request, sandboxDeclineReason = "sandbox_decline_reason" }
    }

    /// Adds a fault ('METHOD PATH-PREFIX KIND[*N]') to the sandbox's plan, owned by `owner`
    /// (a run id) so `removeFaults(owner:)` can take back what is left of it; without an owner
    /// the fault stays until the sandbox's faults are deleted.
    public func inject(fault spec: String, owner: String? = nil) async throws(CustomerRequestFailure) {
        var fields = ["fault": spec]
        if let owner { fields["owner"] = owner }
        let body = try? JSONSerialization.data(withJSONObject: fields)
        let request = ProviderRequest(
            method: "POST", url: "\(baseURL)/sandbox/faults",
            headers: [(name: "Content-Type", value: "application/json")], body: body)
        let response = try await send(request)
        guard response.isSuccess else { throw Self.rejected(response) }
    }

    /// Removes the pending faults `owner` added; answers how many there were.
    public func removeFaults(owner: String) async throws(CustomerRequestFailure) -> Int {
        let encoded = owner.addingPercentEncoding(withAllowedCharacters: Self.queryValueAllowed) ?? owner
        let request = ProviderRequest(
            method: "DELETE", url: "\(baseURL)/sandbox/faults?owner=\(encoded)",
            headers: [(name: "Accept", value: "application/json")])
        let response = try await send(request)
        guard response.isSuccess else { throw Self.rejected(response) }
        struct Removal: Decodable { let removed: Int }
        do { return try JSONDecoder().decode(Removal.self, from: response.body).removed } catch {
            throw .undecodable(status: response.status, detail: "\(error)")
        }
    }

    /// Characters a query value may carry unescaped.
    private static let queryValueAllowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    private func send(_ request: ProviderRequest) async throws(CustomerRequestFailure) -> ProviderResponse {
        do throws(TransportFailure) { return try await http.send(request, provider: Self.provider) } catch {
            throw .transport(error)
        }
    }

    private static func rejected(_ response: ProviderResponse) -> CustomerRequestFailure {
        .api(status: response.status, errors: [CashAppErrorDetail(
            category: "SANDBOX", code: "FAULT_REJECTED", detail: String(decoding: response.body, as: UTF8.self))])
    }

    /// Acts as the customer on attempt `id`, whichever provider's it is; only success matters.
    public func act(_ decision: CustomerDecision, on id: String) async throws(CustomerRequestFailure) {
        let response = try await decide(decision, id: id)
        guard response.isSuccess else { throw CustomerRequestClient.failure(for: response) }
    }

    private func decide(_ decision: CustomerDecision, id: String) async throws(CustomerRequestFailure) -> ProviderResponse {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: Self.queryValueAllowed) ?? id
        let request = ProviderRequest(
            method: "POST", url: "\(baseURL)/sandbox/customer-requests/\(escaped)/\(decision.rawValue)",
            headers: [(name: "Accept", value: "application/json")])
        do throws(TransportFailure) { return try await http.send(request, provider: Self.provider) } catch {
            throw .transport(error)
        }
    }

    /// Acts as the customer on Cash App request `id`, answering the request as it now is.
    public func customer(_ decision: CustomerDecision, requestID id: String) async throws(CustomerRequestFailure) -> Outcome {
        let response = try await decide(decision, id: id)
        guard response.isSuccess else { throw CustomerRequestClient.failure(for: response) }
        do { return try CashAppJSON.decoder().decode(Outcome.self, from: response.body) } catch {
            throw .undecodable(status: response.status, detail: "\(error)")
        }
    }
}
