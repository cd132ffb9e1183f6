import CheckoutModel
import ProviderClients
import ProviderWire

/// Cash App Pay's Customer Request API as the coordinator's steps: create with the attempt's
/// idempotency key, update the amount before authorizing, retrieve to poll or refresh.
public struct CashAppAdapter: PaymentProviderAdapter, ProviderHealthCheck {
    public static let redirectURL = CashAppPaySettings.defaultRedirectURL

    public let provider: String
    public let client: any CustomerRequestAPI
    public let brandID: String
    /// Retrieval retries while refreshing (STATES.md: 3 tries with back-off).
    public let refreshRetry: RetryPolicy
    /// On-file payments and the redirect URL; a payment's options (the screen's toggle) win.
    public let settings: CashAppPaySettings
    /// Asks whether Cash App Pay answers again after an apiError; nil where no cheap call can (a real host).
    private let health: (@Sendable () async -> Bool)?
    private let requests: CashAppRequests

    public init(
        provider: String, client: any CustomerRequestAPI, brandID: String, refreshRetry: RetryPolicy = .standard.withMaxAttempts(3),
        settings: CashAppPaySettings = CashAppPaySettings(), health: (@Sendable () async -> Bool)? = nil
    ) {
        self.provider = provider
        self.client = client
        self.brandID = brandID
        self.refreshRetry = refreshRetry
        self.settings = settings
        self.health = health
        requests = CashAppRequests(provider: provider, client: client, refreshRetry: refreshRetry)
    }

    public func healthy() async -> Bool? {
        guard let health else { return nil }
        return await health()
    }

    /// The one-time payment the request asks for.
    public static func actions(scopeID: String, amount: Money) -> [PaymentAction] {
        [.oneTimePayment(scopeID: scopeID, amount: amount.minorUnits, currency: amount.currency.code)]
    }

    /// The actions `settings` ask for: the one-time payment, an on-file payment beside it, or
    /// the on-file payment alone (PayKit's `onFilePayment(scopeID:accountReferenceID:)`).
    public static func actions(scopeID: String, amount: Money, settings: CashAppPaySettings) -> [PaymentAction] {
        let onFile = PaymentAction(type: .ON_FILE_PAYMENT, scopeID: scopeID, accountReferenceID: settings.accountReferenceID)
        switch settings.onFile {
        case nil: return actions(scopeID: scopeID, amount: amount)
        case .also?: return actions(scopeID: scopeID, amount: amount) + [onFile]
        case .only?: return [onFile]
        }
    }

    public static func createParams(_ draft: PaymentAttempt, order: PaymentOrder, brandID: String) -> CreateCustomerRequestParams {
        createParams(draft, order: order, brandID: brandID, settings: CashAppPaySettings())
    }

    public static func createParams(
        _ draft: PaymentAttempt, order: PaymentOrder, brandID: String, settings: CashAppPaySettings
    ) -> CreateCustomerRequestParams {
        let settings = settings.applying(order.providerOptions)
        return CashAppRequests.createParams(
            draft, order: order, actions: actions(scopeID: brandID, amount: draft.amount ?? order.amount, settings: settings), channel: .ONLINE,
            redirectURL: settings.redirectURL)
    }

    public func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        let created = try await requests.create(Self.createParams(draft, order: order, brandID: brandID, settings: settings), idempotencyKey: ids.idempotencyKey)
        return Self.keepingAmount(created, draft.amount ?? order.amount)
    }

    public func update(
        _ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers
    ) async throws(ProviderFailure) -> PaymentAttempt {
        let amount = draft.amount ?? order.amount
        let updated = try await requests.update(
            attempt, actions: Self.actions(scopeID: brandID, amount: amount, settings: settings.applying(order.providerOptions)),
            reference: attempt.reference, metadata: CashAppRequests.metadata(order))
        return Self.keepingAmount(updated, amount)
    }

    /// An on-file request alone asks for no money now: the attempt keeps the order's amount (what
    /// the grant is for), so the coordinator does not take it for a cart the request missed.
    private static func keepingAmount(_ attempt: PaymentAttempt, _ amount: Money) -> PaymentAttempt {
        var attempt = attempt
        if attempt.amount == nil { attempt.amount = amount }
        return attempt
    }

    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        var retrieved = try await requests.retrieve(attempt, refreshing: refreshing)
        if retrieved.amount == nil { retrieved.amount = attempt.amount }
        return retrieved
    }
}
