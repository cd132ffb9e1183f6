import Foundation
import ProviderClients
@testable import ProviderWire
@testable import Sandbox

/// The wallet's wire from both sides. The first byte picks what reads the rest (its low three
/// bits): the rates service's answer as the client reads it (what reads is within its bounds and
/// reads back after encoding), the payment token and the token answer as the client decodes
/// them (each reads back; a token's `applePayToken` gives back its payment data), the token
/// request as the sandbox checks it (what it takes, it takes again as the client encodes it,
/// and the token it issues verifies on Adyen's and Square's sides as the same card, refused alike
/// when the merchant's capabilities carried in it do not take it), Adyen's
/// `applePayToken` and Square's wallet nonce as the processors verify them, and the sandbox's
/// error body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWalletWire(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let body = Data(bytes: bytes + 1, count: count - 1)
    switch bytes[0] & 7 {
    case 0: rates(body)
    case 1:
        if let token: WalletPaymentToken = readsBack(body) {
            guard WalletPaymentData(applePayToken: token.applePayToken) == token.paymentData else { fatalError("\(token)'s applePayToken does not read back") }
            verified(WalletTokenVerifier.card(fromApplePayToken: token.applePayToken))
        }
    case 2:
        if let answer: WalletTokenResponse = readsBack(body) {
            verified(WalletTokenVerifier.card(fromApplePayToken: answer.token.applePayToken))
            verified(WalletTokenVerifier.card(fromSquareNonce: answer.squareNonce))
        }
    case 3: sandboxIssues(body)
    case 4: verified(WalletTokenVerifier.card(fromApplePayToken: String(decoding: body, as: UTF8.self)))
    case 5: verified(WalletTokenVerifier.card(fromSquareNonce: String(decoding: body, as: UTF8.self)))
    case 6:
        if let error: WalletErrorBody = readsBack(body) { _ = error.description }
    default:
        // Any body as every answer the client reads: one kind must not read back wrongly as another.
        _ = try? WalletRatesDecoding.decode(body)
        let _: WalletPaymentToken? = readsBack(body)
        let _: WalletTokenResponse? = readsBack(body)
        let _: WalletTokenRequest? = readsBack(body)
    }
    return 0
}

/// The rates answer: what reads is a JSON array's worth of showable rates, ids unique, amounts
/// decimal; encoded again (as the sandbox encodes them), it reads as the same rates.
private func rates(_ body: Data) {
    let rates: [WalletRate]
    do throws(WalletWireError) { rates = try WalletRatesDecoding.decode(body) } catch {
        guard error.field.hasPrefix("rates"), !error.problem.isEmpty else { fatalError("a refusal names no field: \(error)") }
        return
    }
    guard rates.count <= WalletRatesDecoding.maxRates, Set(rates.map(\.id)).count == rates.count else { fatalError("read \(rates)") }
    for rate in rates where !WalletRatesDecoding.isDecimalAmount(rate.amount) || rate.id.isEmpty || rate.carrier.isEmpty || rate.service.isEmpty {
        fatalError("read a rate that cannot be shown: \(rate)")
    }
    guard let encoded = try? JSONEncoder().encode(rates), (try? WalletRatesDecoding.decode(encoded)) == rates else {
        fatalError("\(rates) does not read back")
    }
}

/// The sandbox's clock, fixed.
private let fuzzNow = Date(timeIntervalSince1970: 1_800_000_000)

/// The token request as the sandbox checks it. A refusal names a field of the request (or the
/// body as a whole); a request it takes is taken again, the same, as the client encodes it, and
/// the token issued for it is that card, that amount, on both processors' sides.
private func sandboxIssues(_ body: Data) {
    let valid: WalletTokenRequest
    do throws(WalletTokenRejection) { valid = try WalletTokenCheck.validate(body) } catch {
        if let field = error.body.field, !WalletTokenCheck.fields.contains(field), error.body.allowed != WalletTokenCheck.fields {
            fatalError("a refusal names \(field), not a field of the request: \(error.body)")
        }
        return
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let sent = try? encoder.encode(valid) else { fatalError("\(valid) does not encode") }
    do throws(WalletTokenRejection) {
        guard try WalletTokenCheck.validate(sent) == valid else { fatalError("the client's encoding of \(valid) reads differently") }
    } catch {
        fatalError("the sandbox takes \(String(decoding: body, as: UTF8.self)) but refuses the client's encoding of it: \(error.body)")
    }
    let transactionID = valid.transactionIdentifier ?? WalletTokenCheck.randomTransactionID()
    let answer = WalletTokenSigner.issue(WalletTokenPayload(
        network: valid.network, last4: valid.last4, amount: valid.amount, currency: valid.currency, merchantIdentifier: valid.merchantIdentifier,
        transactionId: transactionID, issuedAt: Int(fuzzNow.timeIntervalSince1970), countryCode: valid.countryCode,
        merchantCapabilities: valid.merchantCapabilities))
    guard answer.squareNonce.utf8.count <= 192 else { fatalError("a Square nonce of \(answer.squareNonce.utf8.count) bytes: \(answer.squareNonce)") }
    let expected = [valid.network, valid.last4, String(valid.amount), valid.currency, transactionID]
    // The merchant's capabilities travel in both: Adyen's and Square's sides refuse the same tokens.
    let capabilities = valid.merchantCapabilities ?? [WalletMerchantCapability.supports3DS.rawValue]
    let kinds = [WalletMerchantCapability.supportsCredit.rawValue, WalletMerchantCapability.supportsDebit.rawValue]
    let cardKind = valid.last4 == WalletMagic.debitLast4 ? WalletMerchantCapability.supportsDebit.rawValue : WalletMerchantCapability.supportsCredit.rawValue
    let refused = !capabilities.contains(WalletMerchantCapability.supports3DS.rawValue)
        || (capabilities.contains { kinds.contains($0) } && !capabilities.contains(cardKind))
    guard answer.token.paymentMethod.type == (valid.last4 == WalletMagic.debitLast4 ? "debit" : "credit") else {
        fatalError("the token for \(valid) says a \(answer.token.paymentMethod.type) card")
    }
    for card in [WalletTokenVerifier.card(fromApplePayToken: answer.token.applePayToken), WalletTokenVerifier.card(fromSquareNonce: answer.squareNonce)] {
        guard let card, [card.network, card.last4, String(card.amount), card.currency, card.transactionId] == expected,
            card.problem(paying: valid.amount, currency: valid.currency, at: fuzzNow) == nil, (card.notSupported != nil) == refused
        else { fatalError("the token for \(valid) verifies as \(String(describing: card))") }
    }
}

/// A card the verifiers accept is one the sandbox could have issued a token for.
private func verified(_ card: TokenizedCard?) {
    guard let card else { return }
    guard WalletTokenCheck.isLast4(card.last4), WalletTokenCheck.isTransactionID(card.transactionId) else { fatalError("verified \(card)") }
}

/// Decodes `Value`; one that decodes must encode and decode back to itself.
private func readsBack<Value: Codable & Equatable>(_ body: Data) -> Value? {
    guard let value = try? JSONDecoder().decode(Value.self, from: body) else { return nil }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let encoded = try? encoder.encode(value) else { fatalError("\(Value.self) decoded but does not encode: \(value)") }
    guard let again = try? JSONDecoder().decode(Value.self, from: encoded), again == value else {
        fatalError("\(Value.self) does not read back: \(String(decoding: encoded, as: UTF8.self))")
    }
    return value
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzWalletWire_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzWalletWire($0, count) } ?? 0 }
}
#endif
