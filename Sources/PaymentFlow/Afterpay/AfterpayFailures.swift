import ProviderClients
import ProviderWire

extension AfterpayError: ClassifiedErrorBody {
    /// Afterpay's answers on the SDK's error states: 5xx degradation, 4xx integration.
    public func providerFailure(status: Int) -> ProviderFailure {
        ProviderFailure(
            kind: status >= 500 ? .api : .integration, category: status >= 500 ? "API_ERROR" : "AFTERPAY_\(status)",
            code: errorCode.uppercased(), detail: message, httpStatus: status)
    }
}
