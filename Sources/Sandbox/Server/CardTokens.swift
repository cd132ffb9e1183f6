import Foundation
import ProviderWire

/// A card the customer's device wallet authorised for one payment, as a processor reads it back
/// from the token it is handed: the card, the one amount it pays, and how long it may.
public struct TokenizedCard: Hashable, Sendable {
    /// Lower case: amex, discover, jcb, maestro, mastercard or visa.
    public let network: String
    public let last4: String
    /// Minor units.
    public let amount: Int
    public let currency: String
    /// Lowercase hex.
    public let transactionId: String
    public let issuedAt: Date
    public let expiresAt: Date
    /// The issuer's decline magic: the processor refuses it.
    public let isDeclined: Bool
    /// Why the merchant's processor does not take this token (its capabilities, as the token
    /// carries them); nil when it does. The processor refuses it as a payment it does not permit.
    public let notSupported: String?

    public init(
        network: String, last4: String, amount: Int, currency: String, transactionId: String, issuedAt: Date, expiresAt: Date, isDeclined: Bool,
        notSupported: String? = nil
    ) {
        self.notSupported = notSupported
        self.network = network
        self.last4 = last4
        self.amount = amount
        self.currency = currency
        self.transactionId = transactionId
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.isDeclined = isDeclined
    }

    /// Why this token cannot pay `amount` `currency` at `now`; nil when it can.
    public func problem(paying amount: Int, currency: String, at now: Date) -> TokenizedCardProblem? {
        guard now < expiresAt else { return .expired(at: expiresAt, lifetime: expiresAt.timeIntervalSince(issuedAt)) }
        guard amount == self.amount, currency == self.currency else {
            return .amountMismatch(token: "\(self.amount) \(self.currency)", payment: "\(amount) \(currency)")
        }
        return nil
    }
}

/// Why a genuine token is refused.
public enum TokenizedCardProblem: Hashable, Sendable, CustomStringConvertible {
    /// `lifetime`: the seconds a token pays within.
    case expired(at: Date, lifetime: TimeInterval)
    /// Both in minor units and currency: "4505 USD".
    case amountMismatch(token: String, payment: String)

    public var description: String {
        switch self {
        case .expired(let at, let lifetime):
            "the wallet token expired at \(ISO8601Milliseconds.string(from: at)) (tokens pay within \(Int(lifetime)) s of issue)"
        case .amountMismatch(let token, let payment): "the wallet token is for \(token) (minor units), the payment is \(payment)"
        }
    }
}

/// Reads the tokens a device wallet's side of the sandbox issues, as the processors receive them.
/// The wallet's side offers one (`SandboxProvider.cardTokens`); the processors' sides find it in
/// `SandboxCore` and never name the wallet. Nil means not a token it issued (malformed, or its
/// seal does not verify: tampered); expiry and amount are the caller's to check
/// (`TokenizedCard.problem`), by its own clock.
public protocol CardTokenReader: Sendable {
    /// A token's `paymentData` as processors taking Apple Pay receive it: base64 of its JSON.
    func card(fromPaymentData token: String) -> TokenizedCard?
    /// A single-use card nonce issued beside the token, as a processor taking nonces receives it;
    /// nil also when `nonce` is not meant as one.
    func card(fromNonce nonce: String) -> TokenizedCard?
}
