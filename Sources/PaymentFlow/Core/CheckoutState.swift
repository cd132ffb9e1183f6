/// The checkout's state, spelled as the Cash App Pay SDK (PayKit iOS) spells it. Every
/// provider drives these same thirteen states; each carries the provider-neutral attempt.
public enum CheckoutState: Hashable, Sendable {
    case notStarted
    case creatingRequest(PaymentAttempt)
    /// The attempt as it is, and as it is being changed to.
    case updatingRequest(PaymentAttempt, to: PaymentAttempt)
    case readyToAuthorize(PaymentAttempt)
    case redirecting(PaymentAttempt)
    case polling(PaymentAttempt)
    case declined(PaymentAttempt)
    case approved(PaymentAttempt)
    case refreshing(PaymentAttempt)
    case apiError(ProviderFailure)
    case integrationError(ProviderFailure)
    case networkError(ProviderFailure)
    case unexpectedError(ProviderFailure)

    /// How the state reads to a person: what colour the banner takes.
    public enum Kind: Hashable, Sendable { case idle, inProgress, success, declined, error }

    /// The error state a failure leads to.
    public static func failed(_ failure: ProviderFailure) -> CheckoutState {
        switch failure.kind {
        case .api: .apiError(failure)
        case .integration: .integrationError(failure)
        case .network: .networkError(failure)
        case .unexpected: .unexpectedError(failure)
        }
    }

    /// The case name exactly as PayKit spells it.
    public var name: String {
        switch self {
        case .notStarted: "notStarted"
        case .creatingRequest: "creatingCustomerRequest"
        case .updatingRequest: "updatingCustomerRequest"
        case .readyToAuthorize: "readyToAuthorize"
        case .redirecting: "redirecting"
        case .polling: "polling"
        case .declined: "declined"
        case .approved: "approved"
        case .refreshing: "refreshing"
        case .apiError: "apiError"
        case .integrationError: "integrationError"
        case .networkError: "networkError"
        case .unexpectedError: "unexpectedError"
        }
    }

    public static let allNames = [
        "notStarted", "creatingCustomerRequest", "updatingCustomerRequest", "readyToAuthorize", "redirecting",
        "polling", "declined", "approved", "refreshing", "apiError", "integrationError", "networkError",
        "unexpectedError",
    ]

    public var kind: Kind {
        switch self {
        case .notStarted: .idle
        case .creatingRequest, .updatingRequest, .readyToAuthorize, .redirecting, .polling, .refreshing:
            .inProgress
        case .approved: .success
        case .declined: .declined
        case .apiError, .integrationError, .networkError, .unexpectedError: .error
        }
    }

    /// The attempt this state carries (while updating: the one being changed).
    public var attempt: PaymentAttempt? {
        switch self {
        case .creatingRequest(let attempt), .updatingRequest(let attempt, _), .readyToAuthorize(let attempt),
            .redirecting(let attempt), .polling(let attempt), .declined(let attempt), .approved(let attempt),
            .refreshing(let attempt):
            attempt
        case .notStarted, .apiError, .integrationError, .networkError, .unexpectedError:
            nil
        }
    }

    /// The attempt once the provider knows it (it has an id).
    public var createdAttempt: PaymentAttempt? {
        guard let attempt, attempt.id != nil else { return nil }
        if case .creatingRequest = self { return nil }
        return attempt
    }

    /// No further transition happens without a new flow.
    public var isTerminal: Bool {
        switch kind {
        case .success, .declined, .error: true
        case .idle, .inProgress: false
        }
    }

    /// Nothing more happens without a new attempt: a terminal state, and for a provider that
    /// settles, an approval whose settlement is over.
    public func ends(with phase: CheckoutPhase?, settles: Bool) -> Bool {
        guard isTerminal else { return false }
        guard settles, case .approved = self else { return true }
        return phase?.isFinal == true
    }

    /// The failure an error state carries.
    public var error: ProviderFailure? {
        switch self {
        case .apiError(let error), .integrationError(let error), .networkError(let error), .unexpectedError(let error): error
        default: nil
        }
    }

    /// A short sentence for people: `app` is where the customer approves ("Cash App"),
    /// `method` the payment method's name ("Cash App Pay").
    public func sentence(app: String, method: String) -> String {
        switch self {
        case .notStarted: "Nothing in flight. Press p to pay."
        case .creatingRequest: "Creating the customer request…"
        case .updatingRequest: "Updating the customer request with the new cart…"
        case .readyToAuthorize: "Request created. Authorize to hand it to the customer."
        case .redirecting: "Handing the customer the authorization link…"
        case .polling: "Waiting for the customer to approve in \(app)…"
        case .declined: "The customer or \(app) declined the payment."
        case .approved: "Approved: grants are ready for the merchant."
        case .refreshing: "The authorization link expired; fetching a fresh one…"
        case .apiError: "\(method) is degraded right now; hide it and try later."
        case .integrationError: "The integration is misconfigured; fix it before shipping."
        case .networkError: "The network failed; check the connection and try again."
        case .unexpectedError: "Something unexpected happened; report it with the HTTP log."
        }
    }
}
