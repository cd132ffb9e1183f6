import PaymentFlow

/// A checkout state as a provider's banner sentences name it: neutral words, not the SDK's
/// case names, so a provider's sentences do not depend on how another provider spells its states.
public enum StateSentenceKey: String, Hashable, Sendable, CaseIterable {
    case creating, updating, readyToAuthorize, redirecting, polling, refreshing, approved, declined

    /// The key for `state`; nil for states no provider words (not started, the errors).
    public init?(_ state: CheckoutState) {
        switch state {
        case .creatingRequest: self = .creating
        case .updatingRequest: self = .updating
        case .readyToAuthorize: self = .readyToAuthorize
        case .redirecting: self = .redirecting
        case .polling: self = .polling
        case .refreshing: self = .refreshing
        case .approved: self = .approved
        case .declined: self = .declined
        case .notStarted, .apiError, .integrationError, .networkError, .unexpectedError: return nil
        }
    }

    /// The SDK's name of the state it stands for, as sentences keyed by state name spell it.
    var stateName: String {
        switch self {
        case .creating: "creatingCustomerRequest"
        case .updating: "updatingCustomerRequest"
        case .readyToAuthorize, .redirecting, .polling, .refreshing, .approved, .declined: rawValue
        }
    }

    /// Sentences keyed by state name (a locale's table) keyed by these words instead.
    static func keyed(_ byStateName: [String: String]) -> [StateSentenceKey: String] {
        Dictionary(uniqueKeysWithValues: allCases.compactMap { key in byStateName[key.stateName].map { (key, $0) } })
    }
}
