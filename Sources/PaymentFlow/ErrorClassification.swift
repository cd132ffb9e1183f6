import ProviderClients

/// Which error state a failed call leads to, by the provider's error category (STATES.md).
public enum ErrorClassification {
    public static let integrationCategories: Set<String> = [
        "AUTHENTICATION_ERROR", "BRAND_ERROR", "MERCHANT_ERROR", "INVALID_REQUEST_ERROR", "RATE_LIMIT_ERROR",
    ]

    public static func state(for failure: CustomerRequestFailure) -> CashAppPayState {
        switch failure {
        case .api(_, let errors):
            guard let first = errors.first else { return .unexpectedError(.emptyErrorArray) }
            let error = CashAppPayError(category: first.category, code: first.code, detail: first.detail, field: first.field)
            if first.category == "API_ERROR" { return .apiError(error) }
            if integrationCategories.contains(first.category) { return .integrationError(error) }
            return .unexpectedError(error)
        case .transport(let transport):
            switch transport {
            case .timedOut, .connectionLost: return .networkError(.noResponse(transport.description))
            case .connectionFailed, .cancelled, .other: return .networkError(.systemError(transport.description))
            }
        case .emptyBody(let status):
            return .networkError(.nilData(status: status))
        case .undecodable(let status, let detail):
            return .networkError(.invalidJSON("HTTP \(status): \(detail)"))
        }
    }
}
