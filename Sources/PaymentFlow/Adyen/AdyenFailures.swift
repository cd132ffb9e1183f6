import ProviderClients
import ProviderWire

extension ProviderFailure {
    /// Adyen's answers on the SDK's error states: 5xx and 429 are the API degrading; 401/403
    /// (`000`, `901`: the key or merchant account) and other 4xx are the integration's.
    public init(adyen failure: AdyenFailure) {
        switch failure {
        case .api(let status, let error):
            let degraded = status >= 500 || status == 429
            self.init(
                kind: degraded ? .api : .integration, category: degraded ? "API_ERROR" : "ADYEN_\(error.errorType.uppercased())",
                code: error.errorCode, detail: error.message, httpStatus: status)
        case .transport(let transport):
            self = .transport(transport)
        case .undecodable(let status, let detail):
            self = .undecodable(status: status, detail: detail)
        }
    }
}
