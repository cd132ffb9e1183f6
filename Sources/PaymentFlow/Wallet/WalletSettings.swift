import CheckoutModel
import ProviderWire

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

    /// `PKShippingType`: what the address and method rows are called.
    public enum ShippingType: String, CaseIterable, Hashable, Sendable {
        case shipping, delivery, storePickup, servicePickup

        /// Any case: `storepickup` and `store-pickup` read as storePickup.
        public init?(spelling: String) {
            let plain = spelling.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")
            guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == plain }) else { return nil }
            self = found
        }

        /// The address row's heading.
        public var addressHeading: String {
            switch self {
            case .shipping: "SHIP TO"
            case .delivery: "DELIVER TO"
            case .storePickup: "PICK UP AT"
            case .servicePickup: "PICK UP FROM"
            }
        }

        /// The method row's heading.
        public var methodHeading: String {
            switch self {
            case .shipping: "SHIPPING"
            case .delivery: "DELIVERY"
            case .storePickup: "PICKUP"
            case .servicePickup: "SERVICE"
            }
        }

        /// The address picker's title.
        public var addressTitle: String {
            switch self {
            case .shipping: "Ship to"
            case .delivery: "Deliver to"
            case .storePickup: "Pick up at"
            case .servicePickup: "Pick up from"
            }
        }
    }

    /// `PKMerchantCapability`, as the payment request and the token carry it.
    public typealias Capability = WalletMerchantCapability

    /// The merchant's own shipping methods (`PKShippingMethod`s set on the request, as the seed's
    /// first example does) instead of the rates lookup.
    public enum FlatMethods: Hashable, Sendable {
        /// The catalog's shipping methods.
        case catalog
        case list([WalletFlatMethod])
    }

    public static let defaultNetworks: [CardNetwork] = [.amex, .mastercard, .visa]
    /// The sandbox wallet's device passcode, asked after three failed Touch ID attempts.
    public static let sandboxPasscode = "123456"

    public var merchantIdentifier = "merchant.com.terminalcheckout.sandbox"
    public var merchantCapabilities: [Capability] = [.supports3DS]
    /// ISO 3166 alpha-2: where the merchant's processor takes the payment.
    public var countryCode = "US"
    /// `requiredBillingContactFields`: shown on the sheet's BILLING row.
    public var requiredBillingFields: [ContactField] = []
    public var shippingType: ShippingType = .shipping
    /// nil: the rates service by address (or the catalog's methods when there is no rates service).
    public var flatMethods: FlatMethods?
    public var supportedNetworks = WalletSettings.defaultNetworks
    /// `requiredShippingContactFields`: without postal the sheet asks no address and looks up no rates.
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

    /// Whether the sheet asks for a shipping address (postal among the required shipping fields).
    public var collectsAddress: Bool { requiredContactFields.contains(.postalAddress) }
}

/// One of the merchant's own shipping methods as given (`id:label:detail:amount`): the amount
/// is read in the order's currency when the sheet opens; `pending` for one not priced yet.
public struct WalletFlatMethod: Hashable, Sendable {
    public var id: String
    public var label: String
    public var detail: String
    /// A decimal amount ("10.00"), or nil for `pending`.
    public var amount: String?

    public init(id: String, label: String, detail: String, amount: String?) {
        self.id = id
        self.label = label
        self.detail = detail
        self.amount = amount
    }
}

extension WalletMerchantCapability {
    /// Any case, with or without `supports`: 3ds, supportsDebit, credit.
    public init?(spelling: String) {
        let plain = spelling.lowercased()
        guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == plain || $0.rawValue.dropFirst("supports".count).lowercased() == plain })
        else { return nil }
        self = found
    }
}
