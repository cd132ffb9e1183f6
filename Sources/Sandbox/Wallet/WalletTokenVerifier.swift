import Foundation
import ProviderWire

/// The card a genuine sandbox token stands for, and the one amount it may pay.
public struct VerifiedWalletCard: Hashable, Sendable {
    public let network: WalletNetwork
    public let last4: String
    /// Minor units.
    public let amount: Int
    public let currency: String
    /// Lowercase hex.
    public let transactionId: String
    public let issuedAt: Date

    public var expiresAt: Date { issuedAt.addingTimeInterval(WalletMagic.tokenLifetimeSeconds) }

    /// The sandbox's decline magic.
    public var isDeclined: Bool { last4 == WalletMagic.declinedLast4 }

    /// Why this token cannot pay `amount` `currency` at `now`; nil when it can.
    public func problem(paying amount: Int, currency: String, at now: Date) -> WalletTokenProblem? {
        guard now < expiresAt else { return .expired(at: expiresAt) }
        guard amount == self.amount, currency == self.currency else {
            return .amountMismatch(token: "\(self.amount) \(self.currency)", payment: "\(amount) \(currency)")
        }
        return nil
    }
}

/// Why a genuine token is refused.
public enum WalletTokenProblem: Hashable, Sendable, CustomStringConvertible {
    case expired(at: Date)
    /// Both in minor units and currency: "4505 USD".
    case amountMismatch(token: String, payment: String)

    public var description: String {
        switch self {
        case .expired(let at): "the wallet token expired at \(ISO8601Milliseconds.string(from: at)) (tokens pay within \(Int(WalletMagic.tokenLifetimeSeconds)) s of issue)"
        case .amountMismatch(let token, let payment): "the wallet token is for \(token) (minor units), the payment is \(payment)"
        }
    }
}

/// Reads the tokens `POST /wallet/tokens` issues, as Adyen's and Square's sides receive them.
/// Nil means not a token of this sandbox (malformed, or its seal does not verify: tampered);
/// expiry and amount are the caller's to check (`VerifiedWalletCard.problem`), by its own clock.
public enum WalletTokenVerifier {
    /// Adyen's `applePayToken`: base64 of the token's `paymentData` JSON.
    public static func card(fromApplePayToken applePayToken: String) -> VerifiedWalletCard? {
        guard let paymentData = WalletPaymentData(applePayToken: applePayToken), paymentData.version == WalletPaymentData.versionEC,
            let signature = Data(base64Encoded: paymentData.signature), WalletTokenSigner.isValid(signature, of: paymentData.data),
            let json = Data(base64Encoded: paymentData.data), let payload = try? JSONDecoder().decode(WalletTokenPayload.self, from: json),
            paymentData.header.transactionId == payload.transactionId
        else { return nil }
        return card(payload)
    }

    /// Whether a Square `source_id` is meant as a wallet nonce (genuine or not).
    public static func isSquareNonce(_ sourceID: String) -> Bool { sourceID.hasPrefix(WalletTokenSigner.squareNoncePrefix) }

    /// A Square `source_id`: `cnon:wallet-<transactionId>-<network>-<last4>-<amount>-<currency>-<issuedAt>-<tag>`.
    public static func card(fromSquareNonce nonce: String) -> VerifiedWalletCard? {
        guard nonce.hasPrefix(WalletTokenSigner.squareNoncePrefix), let dash = nonce.lastIndex(of: "-") else { return nil }
        let body = String(nonce[..<dash])
        let tag = nonce[nonce.index(after: dash)...]
        // Equal lengths compared in full: the time taken says nothing of where they differ.
        let expected = WalletTokenSigner.nonceTag(body)
        guard tag.utf8.count == expected.utf8.count, zip(tag.utf8, expected.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        // Read from the end: the transaction id may itself hold dashes (a UUID).
        let fields = body.dropFirst(WalletTokenSigner.squareNoncePrefix.count).split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 6 else { return nil }
        let tail = Array(fields.suffix(5))
        guard let amount = Int(tail[2]), let issuedAt = Int(tail[4]) else { return nil }
        return card(WalletTokenPayload(
            network: tail[0], last4: tail[1], amount: amount, currency: tail[3], merchantIdentifier: "",
            transactionId: fields.dropLast(5).joined(separator: "-"), issuedAt: issuedAt))
    }

    /// A sealed payload is the sandbox's own, but it is checked again rather than trusted blindly.
    private static func card(_ payload: WalletTokenPayload) -> VerifiedWalletCard? {
        guard let network = WalletNetwork(rawValue: payload.network), WalletTokenCheck.isLast4(payload.last4),
            WalletTokenCheck.isTransactionID(payload.transactionId)
        else { return nil }
        return VerifiedWalletCard(
            network: network, last4: payload.last4, amount: payload.amount, currency: payload.currency, transactionId: payload.transactionId,
            issuedAt: Date(timeIntervalSince1970: TimeInterval(payload.issuedAt)))
    }
}
