import ProviderClients
import ProviderWire

extension ProviderFailure {
    /// Cash App's error categories on the SDK's error states (STATES.md).
    static let cashAppIntegrationCategories: Set<String> = [
        "AUTHENTICATION_ERROR", "BRAND_ERROR", "MERCHANT_ERROR", "INVALID_REQUEST_ERROR", "RATE_LIMIT_ERROR",
    ]

    /// A failed Customer Request API call: API_ERROR → apiError, the integration categories →
    /// integrationError, anything else unexpected; transport and bodies as for every provider.
    public init(cashApp failure: CustomerRequestFailure) {
        switch failure {
        case .api(let status, let errors):
            guard let first = errors.first else {
                self = .emptyErrorArray
                return
            }
            let kind: Kind =
                first.category == "API_ERROR" ? .api : Self.cashAppIntegrationCategories.contains(first.category) ? .integration : .unexpected
            self.init(kind: kind, category: first.category, code: first.code, detail: first.detail, field: first.field, httpStatus: status)
        case .transport(let transport):
            self = .transport(transport)
        case .emptyBody(let status):
            self = .emptyBody(status: status)
        case .undecodable(let status, let detail):
            self = .undecodable(status: status, detail: detail)
        }
    }
}
