import ProviderClients
import ProviderWire

extension CashAppErrorBody: ClassifiedErrorBody {
    /// Cash App's error categories on the SDK's error states (STATES.md).
    static let integrationCategories: Set<String> = [
        "AUTHENTICATION_ERROR", "BRAND_ERROR", "MERCHANT_ERROR", "INVALID_REQUEST_ERROR", "RATE_LIMIT_ERROR",
    ]

    /// API_ERROR → apiError, the integration categories → integrationError, anything else
    /// unexpected, as is an answer with no errors.
    public func providerFailure(status: Int) -> ProviderFailure {
        guard let first = errors.first else { return .emptyErrorArray }
        let kind: ProviderFailure.Kind =
            first.category == "API_ERROR" ? .api : Self.integrationCategories.contains(first.category) ? .integration : .unexpected
        return ProviderFailure(kind: kind, category: first.category, code: first.code, detail: first.detail, field: first.field, httpStatus: status)
    }
}
