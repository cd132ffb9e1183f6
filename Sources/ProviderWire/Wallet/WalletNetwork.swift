/// The card networks a wallet token can be issued for, spelled as the token request takes them.
public enum WalletNetwork: String, CaseIterable, Hashable, Sendable {
    case amex, discover, jcb, maestro, mastercard, visa

    /// Apple's `PKPaymentNetwork` spelling, as `paymentMethod.network` carries it.
    public var appleName: String {
        switch self {
        case .amex: "AmEx"
        case .discover: "Discover"
        case .jcb: "JCB"
        case .maestro: "Maestro"
        case .mastercard: "MasterCard"
        case .visa: "Visa"
        }
    }

    /// "amex, discover, …": for messages naming what is allowed.
    public static var allowedList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
