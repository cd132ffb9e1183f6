import Foundation
import ProviderWire

/// Reads the tokens `POST /wallet/tokens` issues, as Adyen's and Square's sides receive them
/// (through `WalletTokenReader`). Nil means not a token of this sandbox (malformed, or its seal
/// does not verify: tampered); expiry and amount are the caller's to check (`TokenizedCard.problem`),
/// by its own clock.
public enum WalletTokenVerifier {
    /// Adyen's `applePayToken`: base64 of the token's `paymentData` JSON.
    public static func card(fromApplePayToken applePayToken: String) -> TokenizedCard? {
        guard let paymentData = WalletPaymentData(applePayToken: applePayToken), paymentData.version == WalletPaymentData.versionEC,
            let signature = Data(base64Encoded: paymentData.signature), WalletTokenSigner.isValid(signature, of: paymentData.data),
            let json = Data(base64Encoded: paymentData.data), let payload = try? JSONDecoder().decode(WalletTokenPayload.self, from: json),
            paymentData.header.transactionId == payload.transactionId
        else { return nil }
        return card(payload)
    }

    /// A Square `source_id`: `cnon:wallet-<transactionId>-<network>-<last4>-<amount>-<currency>-<issuedAt>-<tag>`.
    public static func card(fromSquareNonce nonce: String) -> TokenizedCard? {
        guard nonce.hasPrefix(WalletTokenSigner.squareNoncePrefix), let dash = nonce.lastIndex(of: "-") else { return nil }
        let body = String(nonce[..<dash])
        let tag = nonce[nonce.index(after: dash)...]
        // Equal lengths compared in full: the time taken says nothing of where they differ.
        let expected = WalletTokenSigner.nonceTag(body)
        guard tag.utf8.count == expected.utf8.count, zip(tag.utf8, expected.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        // Read from the end: the transaction id may itself hold dashes (a UUID).
        let fields = body.dropFirst(WalletTokenSigner.squareNoncePrefix.count).split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 7 else { return nil }
        let tail = Array(fields.suffix(6))
        guard let amount = Int(tail[2]), let issuedAt = Int(tail[4]) else { return nil }
        // `<type>.<paymentDataType>.<capabilities>`: the type and data type follow from the rest.
        let capabilityParts = tail[5].split(separator: ".", omittingEmptySubsequences: false)
        guard capabilityParts.count == 3 else { return nil }
        let capabilities = capabilityParts[2].split(separator: "+").map { "supports" + $0 }
        guard !capabilities.isEmpty, capabilities.allSatisfy({ WalletMerchantCapability(rawValue: $0) != nil }) else { return nil }
        let payload = WalletTokenPayload(
            network: tail[0], last4: tail[1], amount: amount, currency: tail[3], merchantIdentifier: "",
            transactionId: fields.dropLast(6).joined(separator: "-"), issuedAt: issuedAt, merchantCapabilities: capabilities)
        guard payload.capabilityField == tail[5] else { return nil }
        return card(payload)
    }

    /// Why the merchant's processor refuses this token: the processors here take 3DSecure
    /// cryptograms only, and a card of a kind (credit, debit) the merchant's capabilities leave
    /// out when they name either. Nil when it may pay.
    static func notSupported(_ payload: WalletTokenPayload) -> String? {
        let capabilities = payload.merchantCapabilities ?? [WalletMerchantCapability.supports3DS.rawValue]
        if payload.paymentDataType != "3DSecure" {
            return "the token's paymentDataType is \(payload.paymentDataType): this processor takes 3DSecure tokens only (the merchant's capabilities lack supports3DS)"
        }
        let credit = capabilities.contains(WalletMerchantCapability.supportsCredit.rawValue)
        let debit = capabilities.contains(WalletMerchantCapability.supportsDebit.rawValue)
        if credit || debit {
            if payload.cardType == "credit", !credit { return "a credit card, and the merchant's capabilities do not include supportsCredit" }
            if payload.cardType == "debit", !debit { return "a debit card, and the merchant's capabilities do not include supportsDebit" }
        }
        return nil
    }

    /// A sealed payload is the sandbox's own, but it is checked again rather than trusted blindly.
    private static func card(_ payload: WalletTokenPayload) -> TokenizedCard? {
        guard let network = WalletNetwork(rawValue: payload.network), WalletTokenCheck.isLast4(payload.last4),
            WalletTokenCheck.isTransactionID(payload.transactionId)
        else { return nil }
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(payload.issuedAt))
        return TokenizedCard(
            network: network.rawValue, last4: payload.last4, amount: payload.amount, currency: payload.currency, transactionId: payload.transactionId,
            issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(WalletMagic.tokenLifetimeSeconds),
            isDeclined: payload.last4 == WalletMagic.declinedLast4, notSupported: notSupported(payload))
    }
}

/// The wallet's tokens as the processors' sides read them (`SandboxCore.cardTokens`): Adyen's
/// `applePayToken` is the token's `paymentData`, Square's `source_id` the nonce issued beside it.
struct WalletTokenReader: CardTokenReader {
    func card(fromPaymentData token: String) -> TokenizedCard? { WalletTokenVerifier.card(fromApplePayToken: token) }
    func card(fromNonce nonce: String) -> TokenizedCard? { WalletTokenVerifier.card(fromSquareNonce: nonce) }
}
