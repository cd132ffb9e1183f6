import CheckoutModel

/// How the merchant asks for a wallet payment (the payment request's fixed parts) and what the
/// command line or a scenario chose ahead of the sheet. Read once, where the options enter.
public struct WalletSettings: Hashable, Sendable {
    /// Who charges the wallet's token.
    public enum Processor: String, CaseIterable, Hashable, Sendable {
        case adyen, square
    }

    /// Which shipping rate is selected when rates arrive.
    public enum MethodChoice: Hashable, Sendable {
        case cheapest, fastest
        case id(String)

        public init(spelling: String) {
            switch spelling.lowercased() {
            case "cheapest": self = .cheapest
            case "fastest": self = .fastest
            default: self = .id(spelling)
            }
        }
    }

    /// The address the sheet opens on: a saved one by label or name, or one given in full.
    public enum AddressChoice: Hashable, Sendable {
        case saved(String)
        case entered(ShippingAddress)
    }

    public static let defaultNetworks: [CardNetwork] = [.amex, .mastercard, .visa]
    /// The sandbox wallet's device passcode, asked after three failed Touch ID attempts.
    public static let sandboxPasscode = "123456"

    public var merchantIdentifier = "merchant.com.terminalcheckout.sandbox"
    public var merchantCapabilities = ["supports3DS"]
    public var countryCode = "US"
    public var supportedNetworks = WalletSettings.defaultNetworks
    public var requiredContactFields: [ContactField] = [.postalAddress, .email, .phone]
    public var processor: Processor = .adyen
    public var address: AddressChoice?
    public var method: MethodChoice = .cheapest
    public var cardLast4: String?
    /// A scenario's or the command line's saved addresses and cards, instead of the catalog customer's.
    public var addresses: [ShippingAddress]?
    public var cards: [SavedCard]?
    public var passcode = WalletSettings.sandboxPasscode
    /// How long the sheet shows its success or failure mark before it closes.
    public var resultMarkSeconds = 0.8

    public init() {}
}
