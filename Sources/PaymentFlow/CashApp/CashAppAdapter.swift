import CheckoutModel
import ProviderClients
import ProviderWire

/// Cash App Pay's Customer Request API as the coordinator's steps: create with the attempt's
/// idempotency key, update the amount before authorizing, retrieve to poll or refresh.
public struct CashAppAdapter: PaymentProviderAdapter {
    public static let redirectURL = "terminalcheckout://checkout/return"

    public let provider: String
    public let client: any CustomerRequestAPI
    public let brandID: String
    /// Retrieval retries while refreshing (STATES.md: 3 tries with back-off).
    public let refreshRetry: RetryPolicy
    private let requests: CashAppRequests

    public init(provider: String, client: any CustomerRequestAPI, brandID: String, refreshRetry: RetryPolicy = .standard.withMaxAttempts(3)) {
        self.provider = provider
        self.client = client
        self.brandID = brandID
        self.refreshRetry = refreshRetry
        requests = CashAppRequests(provider: provider, client: client, refreshRetry: refreshRetry)
    }

    /// The one-time payment the request asks for.
    public static func actions(scopeID: String, amount: Money) -> [PaymentAction] {
        [.oneTimePayment(scopeID: scopeID, amount: amount.minorUnits, currency: amount.currency.code)]
    }

    public static func createParams(_ draft: PaymentAttempt, order: PaymentOrder, brandID: String) -> CreateCustomerRequestParams {
        CashAppRequests.createParams(
            draft, order: order, actions: actions(scopeID: brandID, amount: draft.amount ?? order.amount), channel: .ONLINE, redirectURL: redirectURL)
    }

    public func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        try await requests.create(Self.createParams(draft, order: order, brandID: brandID), idempotencyKey: ids.idempotencyKey)
    }

    public func update(
        _ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers
    ) async throws(ProviderFailure) -> PaymentAttempt {
        try await requests.update(
            attempt, actions: Self.actions(scopeID: brandID, amount: draft.amount ?? order.amount), reference: attempt.reference,
            metadata: CashAppRequests.metadata(order))
    }

    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        try await requests.retrieve(attempt, refreshing: refreshing)
    }
}
