import ProviderClients
import ProviderWire

extension AdyenServiceError: ClassifiedErrorBody {
    /// Adyen's answers on the SDK's error states: 5xx and 429 are the API degrading; 401/403
    /// (`000`, `901`: the key or merchant account) and other 4xx are the integration's.
    public func providerFailure(status: Int) -> ProviderFailure {
        let degraded = status >= 500 || status == 429
        return ProviderFailure(
            kind: degraded ? .api : .integration, category: degraded ? "API_ERROR" : "ADYEN_\(errorType.uppercased())",
            code: errorCode, detail: message, httpStatus: status)
    }
}
