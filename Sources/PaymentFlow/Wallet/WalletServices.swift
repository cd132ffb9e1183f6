import CheckoutModel
import ProviderWire

/// Where the sheet's rates come from: the sandbox's `/rates`, or `--rates-url`.
public protocol WalletRatesSource: Sendable {
    func rates(for address: ShippingAddress, weightGrams: Int, currency: Currency) async -> WalletSheet.RatesOutcome
    /// False when there is no rates service: the catalog's methods are used, flat.
    var isConfigured: Bool { get }
}

extension WalletRatesSource {
    public var isConfigured: Bool { true }
}

/// Issues the wallet's payment token once the customer authorizes (PassKit's part; the sandbox here).
public protocol WalletTokenSource: Sendable {
    func token(_ request: WalletTokenRequest) async throws(ProviderFailure) -> WalletTokenResponse
}

/// The merchant's processor, which charges the wallet's token.
public protocol WalletProcessor: Sendable {
    /// "Adyen", "Square": for the sheet and the receipt.
    var name: String { get }
    func charge(_ charge: WalletCharge) async throws(ProviderFailure) -> WalletChargeResult
}

/// One charge of a wallet token: the amount, the attempt's reference and idempotency key (a
/// retry is the same charge), and what the order ships to.
public struct WalletCharge: Hashable, Sendable {
    public var token: WalletTokenResponse
    public var amount: Money
    public var reference: String
    public var idempotencyKey: String
    public var address: ShippingAddress
    public var contact: WalletContact
    public var shippingLabel: String

    public init(
        token: WalletTokenResponse, amount: Money, reference: String, idempotencyKey: String, address: ShippingAddress, contact: WalletContact,
        shippingLabel: String
    ) {
        self.token = token
        self.amount = amount
        self.reference = reference
        self.idempotencyKey = idempotencyKey
        self.address = address
        self.contact = contact
        self.shippingLabel = shippingLabel
    }
}

/// What the processor made of it.
public struct WalletChargeResult: Hashable, Sendable {
    public var approved: Bool
    /// The processor's payment id (Adyen's pspReference, Square's payment id).
    public var paymentID: String?
    /// The processor's refusal in its own words.
    public var declineReason: String?
    /// Facts for the receipt and `--json` (`psp_reference`, `result_code`, …).
    public var details: [String: String]

    public init(approved: Bool, paymentID: String?, declineReason: String? = nil, details: [String: String] = [:]) {
        self.approved = approved
        self.paymentID = paymentID
        self.declineReason = declineReason
        self.details = details
    }
}
