/// Steps outside the SDK states (STATES.md): Afterpay's pre-phases before the customer
/// request exists, and the settlement after `approved`.
public enum CheckoutPhase: Hashable, Sendable {
    case token
    case signing
    case validating
    case capturing
    case completed(paymentID: String, cashtag: String?)
    case settlementFailed(reason: String)

    public static let allNames = ["token", "signing", "validating", "capturing", "completed", "settlementFailed"]

    public var name: String {
        switch self {
        case .token: "token"
        case .signing: "signing"
        case .validating: "validating"
        case .capturing: "capturing"
        case .completed: "completed"
        case .settlementFailed: "settlementFailed"
        }
    }
}
