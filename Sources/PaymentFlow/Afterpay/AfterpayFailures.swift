import ProviderClients
import ProviderWire

extension ProviderFailure {
    /// Afterpay's answers on the SDK's error states: 5xx degradation, 4xx integration; transport
    /// and bodies as for every provider.
    public init(afterpay failure: AfterpayFailure) {
        switch failure {
        case .api(let status, let error):
            self.init(
                kind: status >= 500 ? .api : .integration, category: status >= 500 ? "API_ERROR" : "AFTERPAY_\(status)",
                code: error.errorCode.uppercased(), detail: error.message, httpStatus: status)
        case .transport(let transport):
            self = .transport(transport)
        case .undecodable(let status, let detail):
            self = .undecodable(status: status, detail: detail)
        }
    }
}
