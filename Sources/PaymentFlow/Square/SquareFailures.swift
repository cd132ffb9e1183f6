import ProviderClients
import ProviderWire

extension SquareErrorBody: ClassifiedErrorBody {
    /// Square's answers on the SDK's error states: 5xx and RATE_LIMIT_ERROR are the API
    /// degrading; authentication and invalid requests (CARD_TOKEN_USED, IDEMPOTENCY_KEY_REUSED)
    /// are the integration's. Declines never get here: they are a declined attempt.
    public func providerFailure(status: Int) -> ProviderFailure {
        guard let first = errors.first else { return .emptyErrorArray }
        let degraded = status >= 500 || first.category == "RATE_LIMIT_ERROR" || first.category == "API_ERROR"
        return ProviderFailure(
            kind: degraded ? .api : .integration, category: first.category, code: first.code, detail: first.detail, field: first.field,
            httpStatus: status)
    }
}

extension SquareFailure {
    /// A card decline (PAYMENT_METHOD_ERROR): the FAILED payment and the decline code.
    var decline: (payment: SquarePayment?, code: String, detail: String?)? {
        guard case .api(_, let body) = self, let error = body.errors.first(where: { $0.category == "PAYMENT_METHOD_ERROR" }) else { return nil }
        return (body.payment, error.code, error.detail)
    }

    /// The request never left this machine (Square unreachable): safe to take offline.
    var neverSent: Bool {
        guard case .transport(let transport) = self else { return false }
        if case .connectionFailed = transport { return true }
        return false
    }
}
