import ProviderClients

/// A provider's error answer placed in the error states (STATES.md): each provider's own
/// classification, kept in its folder.
public protocol ClassifiedErrorBody: ProviderErrorBody {
    /// The failure an answer of `status` with this body is.
    func providerFailure(status: Int) -> ProviderFailure
}

extension ProviderFailure {
    /// A failed call: the provider's answer as the provider classifies it; no answer, no body
    /// and a body that is not the JSON expected the same way for every provider.
    public init<ErrorBody: ClassifiedErrorBody>(_ failure: ProviderCallFailure<ErrorBody>) {
        switch failure {
        case .api(let status, let body): self = body.providerFailure(status: status)
        case .transport(let transport): self = .transport(transport)
        case .emptyBody(let status): self = .emptyBody(status: status)
        case .undecodable(let status, let detail): self = .undecodable(status: status, detail: detail)
        }
    }
}
