/// A card network the wallet sheet can show and a merchant can accept.
public enum CardNetwork: String, CaseIterable, Sendable {
    case amex, discover, jcb, mastercard, visa, unionpay

    public var displayName: String {
        switch self {
        case .amex: "Amex"
        case .discover: "Discover"
        case .jcb: "JCB"
        case .mastercard: "Mastercard"
        case .visa: "Visa"
        case .unionpay: "UnionPay"
        }
    }

    /// The network spelled `text` in any case ("Visa", "VISA"), or nil.
    public init?(spelling text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// The accepted spellings, for error messages: "amex, discover, jcb, mastercard, visa, unionpay".
    public static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A card the customer has saved (the wallet sheet offers them), shown by network and last four digits.
public struct SavedCard: Hashable, Sendable {
    public let network: CardNetwork
    public let last4: String
    /// What the sheet shows, "Visa •••• 4242" unless given.
    public let label: String

    public init(network: CardNetwork, last4: String, label: String? = nil) {
        self.network = network
        self.last4 = last4
        self.label = label ?? "\(network.displayName) •••• \(last4)"
    }

    /// Why `text` is not a card's last four digits, or nil when it is exactly four ASCII digits.
    public static func last4Problem(_ text: String) -> String? {
        let isFourDigits = text.utf8.count == 4 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return isFourDigits ? nil : "must be exactly 4 digits (e.g. 4242)"
    }
}
