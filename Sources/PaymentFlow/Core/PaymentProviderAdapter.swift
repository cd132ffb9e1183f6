/// One provider's steps, as the coordinator asks for them. Each provider's folder has one;
/// it turns provider-neutral orders and attempts into its wire calls and classifies its own
/// error bodies into `ProviderFailure`.
public protocol PaymentProviderAdapter: Sendable {
    /// Steps before the provider's request exists (Afterpay: token, signing), reporting each
    /// step's name; returns what the request will be created or updated to.
    func prepare(
        _ order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async throws(ProviderFailure) -> PaymentAttempt

    /// Creates the attempt at the provider; retries reuse `ids.idempotencyKey`.
    func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt

    /// Changes a created, undecided attempt to `draft` (the cart changed before authorizing).
    func update(
        _ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers
    ) async throws(ProviderFailure) -> PaymentAttempt

    /// Reads the attempt again: once while polling, or with retries when refreshing its link.
    func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt

    /// Settles an approved attempt (validate, capture), reporting each step's name.
    func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome

    /// The provider's sheet at the terminal (plans that authorize at the terminal): the customer
    /// authorizes there and the payment is made; returns the attempt approved or declined, or
    /// still pending when the customer closed the sheet unpaid.
    func authorizeAtTerminal(
        _ attempt: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async throws(ProviderFailure) -> PaymentAttempt

    /// The session is over: release what the adapter opened (Adyen: its webhook receiver).
    func close() async

    /// Itself, when its provider keeps saved methods; nil otherwise. A requirement, not an
    /// `as?` cast: each first cast scans every conformance record in the binary (14,000).
    var savedMethodsAdapter: (any SavedPaymentMethodsAdapter)? { get }

    /// Itself, when it can tell whether its provider is back after an `apiError`; nil otherwise.
    var healthCheck: (any ProviderHealthCheck)? { get }
}

extension PaymentProviderAdapter {
    /// Providers with nothing to do before their request: the draft is the order's amount and reference.
    public func prepare(
        _ order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async throws(ProviderFailure) -> PaymentAttempt {
        PaymentAttempt(provider: "", amount: order.amount, reference: order.reference ?? ids.reference)
    }

    public func close() async {}

    public var savedMethodsAdapter: (any SavedPaymentMethodsAdapter)? { nil }

    public var healthCheck: (any ProviderHealthCheck)? { nil }

    /// Providers authorized elsewhere never open a sheet here.
    public func authorizeAtTerminal(
        _ attempt: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async throws(ProviderFailure) -> PaymentAttempt {
        attempt
    }

    /// Providers whose approval is the end: nothing to settle.
    public func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome {
        .completed(SettlementReceipt(paymentID: attempt.id ?? "", payer: attempt.payer))
    }
}

/// Reports that a provider step began, by the name its descriptor lists; awaited, so the
/// step is shown before the call goes on.
public typealias StepReporter = @Sendable (String) async -> Void

/// An adapter that can tell whether its provider is back after an `apiError` (Cash App Pay
/// through the sandbox: `GET /sandbox/health`); the screen asks it while the provider's methods
/// are hidden.
public protocol ProviderHealthCheck: Sendable {
    /// true when the provider answers again, false when not yet; nil when there is no cheap call
    /// to ask (a real host): then only the pause brings the methods back.
    func healthy() async -> Bool?
}

extension PaymentProviderAdapter where Self: ProviderHealthCheck {
    public var healthCheck: (any ProviderHealthCheck)? { self }
}
