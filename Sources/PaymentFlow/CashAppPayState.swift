import ProviderWire

/// The checkout's state, spelled as the Cash App Pay SDK (PayKit iOS) spells it. Every
/// provider drives these same thirteen states.
public enum CashAppPayState: Hashable, Sendable {
    case notStarted
    case creatingCustomerRequest(CreateCustomerRequestParams)
    case updatingCustomerRequest(request: CustomerRequest, params: UpdateCustomerRequestParams)
    case readyToAuthorize(CustomerRequest)
    case redirecting(CustomerRequest)
    case polling(CustomerRequest)
    case declined(CustomerRequest)
    case approved(request: CustomerRequest, grants: [Grant])
    case refreshing(CustomerRequest)
    case apiError(CashAppPayError)
    case integrationError(CashAppPayError)
    case networkError(NetworkError)
    case unexpectedError(CashAppPayError)

    /// How the state reads to a person: what colour the banner takes.
    public enum Kind: Hashable, Sendable { case idle, inProgress, success, declined, error }

    /// The case name exactly as PayKit spells it.
    public var name: String {
        switch self {
        case .notStarted: "notStarted"
        case .creatingCustomerRequest: "creatingCustomerRequest"
        case .updatingCustomerRequest: "updatingCustomerRequest"
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
        case .creatingCustomerRequest, .updatingCustomerRequest, .readyToAuthorize, .redirecting, .polling, .refreshing:
            .inProgress
        case .approved: .success
        case .declined: .declined
        case .apiError, .integrationError, .networkError, .unexpectedError: .error
        }
    }

    /// The customer request this state carries, when it carries one.
    public var request: CustomerRequest? {
        switch self {
        case .updatingCustomerRequest(let request, _), .readyToAuthorize(let request), .redirecting(let request),
            .polling(let request), .declined(let request), .approved(let request, _), .refreshing(let request):
            request
        case .notStarted, .creatingCustomerRequest, .apiError, .integrationError, .networkError, .unexpectedError:
            nil
        }
    }

    /// No further transition happens without a new flow.
    public var isTerminal: Bool {
        switch kind {
        case .success, .declined, .error: true
        case .idle, .inProgress: false
        }
    }

    /// The error an error state carries, in one shape for display.
    public var error: CashAppPayError? {
        switch self {
        case .apiError(let error), .integrationError(let error), .unexpectedError(let error): error
        case .networkError(let error): error.asPayError
        default: nil
        }
    }

    /// A short sentence for people.
    public var sentence: String {
        switch self {
        case .notStarted: "Nothing in flight. Press p to pay."
        case .creatingCustomerRequest: "Creating the customer request…"
        case .updatingCustomerRequest: "Updating the customer request with the new cart…"
        case .readyToAuthorize: "Request created. Authorize to hand it to the customer."
        case .redirecting: "Handing the customer the authorization link…"
        case .polling: "Waiting for the customer to approve in Cash App…"
        case .declined: "The customer or Cash App declined the payment."
        case .approved: "Approved: grants are ready for the merchant."
        case .refreshing: "The authorization link expired; fetching a fresh one…"
        case .apiError: "Cash App Pay is degraded right now; hide it and try later."
        case .integrationError: "The integration is misconfigured; fix it before shipping."
        case .networkError: "The network failed; check the connection and try again."
        case .unexpectedError: "Something unexpected happened; report it with the HTTP log."
        }
    }
}
