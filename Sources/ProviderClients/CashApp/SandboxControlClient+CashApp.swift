import ProviderWire

extension SandboxControlClient {
    /// What the simulated customer's action did to a Cash App request.
    public struct CustomerRequestOutcome: Decodable, Sendable {
        public let request: CustomerRequest
        public let sandboxDeclineReason: String?
        enum CodingKeys: String, CodingKey { case request, sandboxDeclineReason = "sandbox_decline_reason" }
    }

    /// Acts as the customer on Cash App request `id`, answering the request as it now is.
    public func customer(_ decision: CustomerDecision, requestID id: String) async throws(SandboxControlFailure) -> CustomerRequestOutcome {
        try await act(decision, on: id) { (response) throws(SandboxControlFailure) -> CustomerRequestOutcome in
            guard response.isSuccess else { throw .strict(response, decoder: CashAppJSON.decoder()) }
            do { return try CashAppJSON.decoder().decode(CustomerRequestOutcome.self, from: response.body) } catch {
                throw .undecodable(status: response.status, detail: "\(error)")
            }
        }
    }
}
