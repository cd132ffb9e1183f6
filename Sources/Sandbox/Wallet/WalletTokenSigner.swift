import Crypto
import Foundation
import ProviderWire

/// What a token's `data` carries, sealed: the card, the one amount it pays, the merchant, and
/// when it was issued. The processors read it back from the token itself.
struct WalletTokenPayload: Codable, Hashable, Sendable {
    let network: String
    let last4: String
    /// Minor units.
    let amount: Int
    let currency: String
    let merchantIdentifier: String
    /// Lowercase hex.
    let transactionId: String
    /// Unix seconds, by the issuing sandbox's clock.
    let issuedAt: Int
    /// The payment request's countryCode and merchantCapabilities (nil in a token issued for a
    /// request that left them out: US and supports3DS).
    var countryCode: String? = nil
    var merchantCapabilities: [String]? = nil

    /// credit, or debit for the sandbox's debit card (last4 5556).
    var cardType: String { last4 == WalletMagic.debitLast4 ? "debit" : "credit" }
    /// 3DSecure when the merchant supports 3DS, else EMV (as PassKit picks the cryptogram).
    var paymentDataType: String {
        (merchantCapabilities ?? [WalletMerchantCapability.supports3DS.rawValue]).contains(WalletMerchantCapability.supports3DS.rawValue) ? "3DSecure" : "EMV"
    }

    /// The nonce's capability field: `<type>.<paymentDataType>.<capabilities without "supports", joined by +>`.
    var capabilityField: String {
        // The standard library's `replacing`: Foundation's goes through NSString (600,000 instructions at first use).
        let names = (merchantCapabilities ?? [WalletMerchantCapability.supports3DS.rawValue]).map { $0.replacing("supports", with: "") }
        return "\(cardType).\(paymentDataType).\(names.joined(separator: "+"))"
    }
}

/// Makes the sandbox's self-verifying tokens: `data` is the payload's JSON in base64, and
/// `signature` an HMAC-SHA256 over that text, so Adyen's and Square's sides can check a token
/// with no store shared between them (and across restarts).
enum WalletTokenSigner {
    /// Fixed and public: it proves a token came from a TerminalCheckout sandbox, nothing more.
    static let key = SymmetricKey(data: Data("TerminalCheckout wallet sandbox token key v1".utf8))
    /// Hex digits of the Square nonce's tag: 64 bits is plenty against guessing in a sandbox.
    static let nonceTagLength = 16
    static let squareNoncePrefix = "cnon:wallet-"

    static func signature(of text: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key))
    }

    static func isValid(_ signature: Data, of text: String) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(text.utf8), using: key)
    }

    /// The tag that ends a Square nonce, over everything before it (domain-separated from tokens).
    static func nonceTag(_ body: String) -> String {
        signature(of: "square-nonce:" + body).prefix(nonceTagLength / 2).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// `cnon:wallet-<transactionId>-<network>-<last4>-<amount>-<currency>-<issuedAt>-<capabilities>` (read back by
    /// `WalletTokenVerifier.card(fromSquareNonce:)`).
    static func nonceBody(_ payload: WalletTokenPayload) -> String {
        squareNoncePrefix
            + [payload.transactionId, payload.network, payload.last4, String(payload.amount), payload.currency, String(payload.issuedAt), payload.capabilityField]
            .joined(separator: "-")
    }

    static func issue(_ payload: WalletTokenPayload) -> WalletTokenResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Plain strings and integers: encoding cannot fail.
        let data = ((try? encoder.encode(payload)) ?? Data()).base64EncodedString()
        let header = WalletPaymentData.Header(
            ephemeralPublicKey: P256.KeyAgreement.PrivateKey().publicKey.derRepresentation.base64EncodedString(),
            publicKeyHash: Data(SHA256.hash(data: Data(payload.merchantIdentifier.utf8))).base64EncodedString(),
            transactionId: payload.transactionId)
        let paymentData = WalletPaymentData(data: data, signature: signature(of: data).base64EncodedString(), header: header)
        let network = WalletNetwork(rawValue: payload.network)
        let method = WalletTokenMethod(
            displayName: "\(network?.appleName ?? payload.network) \(payload.last4)", network: network?.appleName ?? payload.network, type: payload.cardType)
        let token = WalletPaymentToken(paymentData: paymentData, paymentMethod: method, transactionIdentifier: payload.transactionId.uppercased())
        let body = nonceBody(payload)
        return WalletTokenResponse(token: token, squareNonce: body + "-" + nonceTag(body))
    }
}
