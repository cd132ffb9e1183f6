import Foundation

/// The payment token the wallet sheet gets once the customer authorizes, in Apple's
/// `PKPaymentToken` shape: the encrypted payment data, the card as the customer saw it, and the
/// transaction's id. The processor reads `paymentData` (Adyen: as `applePayToken`).
public struct WalletPaymentToken: Codable, Hashable, Sendable {
    public var paymentData: WalletPaymentData
    public var paymentMethod: WalletTokenMethod
    /// Hex, as Apple sends it.
    public var transactionIdentifier: String

    public init(paymentData: WalletPaymentData, paymentMethod: WalletTokenMethod, transactionIdentifier: String) {
        self.paymentData = paymentData
        self.paymentMethod = paymentMethod
        self.transactionIdentifier = transactionIdentifier
    }

    /// What Adyen's `paymentMethod.applePayToken` carries: the base64 of `paymentData`'s JSON.
    public var applePayToken: String { paymentData.applePayToken }
}

/// `PKPaymentToken.paymentData` (`EC_v1`): the payment data and the signature over it, with the
/// header a processor decrypts by.
public struct WalletPaymentData: Codable, Hashable, Sendable {
    public static let versionEC = "EC_v1"

    public struct Header: Codable, Hashable, Sendable {
        /// Base64 of an X.509 P-256 public key.
        public var ephemeralPublicKey: String
        /// Base64 of a SHA-256 hash that names the merchant's key.
        public var publicKeyHash: String
        /// Hex.
        public var transactionId: String

        public init(ephemeralPublicKey: String, publicKeyHash: String, transactionId: String) {
            self.ephemeralPublicKey = ephemeralPublicKey
            self.publicKeyHash = publicKeyHash
            self.transactionId = transactionId
        }
    }

    public var version: String
    /// Base64.
    public var data: String
    /// Base64.
    public var signature: String
    public var header: Header

    public init(version: String = WalletPaymentData.versionEC, data: String, signature: String, header: Header) {
        self.version = version
        self.data = data
        self.signature = signature
        self.header = header
    }

    /// Base64 of this JSON (sorted keys, so one token always gives one string).
    public var applePayToken: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings only: encoding cannot fail.
        return ((try? encoder.encode(self)) ?? Data()).base64EncodedString()
    }

    /// The payment data an `applePayToken` carries; nil when it is not base64 of this JSON.
    public init?(applePayToken: String) {
        guard let json = Data(base64Encoded: applePayToken), let data = try? JSONDecoder().decode(Self.self, from: json) else { return nil }
        self = data
    }
}

/// `PKPaymentMethod` as the token carries it: "Visa 1234", the network's Apple spelling, and
/// the card's kind.
public struct WalletTokenMethod: Codable, Hashable, Sendable {
    public var displayName: String
    /// Apple's `PKPaymentNetwork` spelling ("Visa", "MasterCard", "AmEx").
    public var network: String
    /// debit, credit, prepaid or store.
    public var type: String

    public init(displayName: String, network: String, type: String) {
        self.displayName = displayName
        self.network = network
        self.type = type
    }
}

/// `PKMerchantCapability` as the payment request and the token carry it.
public enum WalletMerchantCapability: String, CaseIterable, Codable, Hashable, Sendable {
    case supports3DS, supportsEMV, supportsCredit, supportsDebit

    public static let defaults: [WalletMerchantCapability] = [.supports3DS]
}

/// `POST /wallet/tokens`: what the customer authorized on the sheet, for the sandbox standing in
/// for PassKit to make a token of. A token pays this amount only.
public struct WalletTokenRequest: Codable, Hashable, Sendable {
    /// Apple Pay's merchant id, "merchant.com.example.shop".
    public var merchantIdentifier: String
    /// Lowercase: one of `WalletNetwork`'s raw values.
    public var network: String
    public var last4: String
    /// Minor units.
    public var amount: Int
    public var currency: String
    /// Hex; the sandbox makes one when left out.
    public var transactionIdentifier: String?
    /// The payment request's `countryCode` (ISO 3166 alpha-2); US when left out.
    public var countryCode: String?
    /// The payment request's `merchantCapabilities` (`WalletMerchantCapability` raw values);
    /// supports3DS when left out. Carried in the token for the processor to check.
    public var merchantCapabilities: [String]?

    public init(
        merchantIdentifier: String, network: String, last4: String, amount: Int, currency: String, transactionIdentifier: String? = nil,
        countryCode: String? = nil, merchantCapabilities: [String]? = nil
    ) {
        self.merchantIdentifier = merchantIdentifier
        self.network = network
        self.last4 = last4
        self.amount = amount
        self.currency = currency
        self.transactionIdentifier = transactionIdentifier
        self.countryCode = countryCode
        self.merchantCapabilities = merchantCapabilities
    }
}

/// The token, and the same authorization as a Square card nonce (Square's Web Payments SDK hands
/// the merchant a nonce for an Apple Pay token; this sandbox hands out both at once).
public struct WalletTokenResponse: Codable, Hashable, Sendable {
    public var token: WalletPaymentToken
    public var squareNonce: String

    public init(token: WalletPaymentToken, squareNonce: String) {
        self.token = token
        self.squareNonce = squareNonce
    }

    enum CodingKeys: String, CodingKey {
        case token
        case squareNonce = "square_nonce"
    }
}
