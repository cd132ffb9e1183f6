@testable import CheckoutApp
import Foundation
@testable import PaymentFlow
@testable import ProviderClients
import ProviderWire
@testable import Sandbox

/// Adyen's Checkout API bodies and webhooks from both sides. The first byte picks what reads
/// the rest: the sandbox reading and validating a request body (as its routes do), the client
/// decoding an answer (an error body when the status is not 2xx), or the webhook receiver
/// reading and verifying a notification. A first byte below 0x80 whose low four bits are not 0
/// picks the sessions flow's bodies instead (the seed corpus's other inputs keep their meaning):
/// the sandbox validating `POST /sessions` and reading the component's calls, and the client
/// decoding the session, its result, setup and payment answers, and the adapter's decision on them.
/// Every body is also an idempotency fingerprint, whose fast writer must match JSONSerialization.
private let key = AdyenHMAC.keyBytes(hex: AdyenHMAC.sandboxKey) ?? []

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdyenWire(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let body = Data(bytes: bytes + 1, count: count - 1)
    let status = bytes[0] & 0x80 == 0 ? 200 : 400 + Int(bytes[0] & 0x0F)
    let response = ProviderResponse(status: status, headers: [], body: body)
    let reader = AdyenRequestReader(limits: SandboxLimits())
    // Every body as an idempotency fingerprint: the fast writer must write JSONSerialization's bytes.
    if let fast = AdyenSortedJSON.sortedKeys(body), fast != AdyenIdempotencyStore.serializedWithSortedKeys(body) {
        fatalError("the sorted JSON differs from JSONSerialization's for \(String(decoding: body, as: UTF8.self))")
    }
    if bytes[0] & 0x80 == 0, bytes[0] & 0x0F != 0 {
        fuzzSessions(bytes[0] & 0x0F, body, response, reader)
        return 0
    }
    switch (bytes[0] >> 4) & 7 {
    case 0:
        if let payment = try? reader.decode(AdyenIncoming.Payment.self, from: body) { _ = try? AdyenPaymentValidation.validate(payment) }
    case 1: _ = try? reader.decode(AdyenIncoming.PaymentMethods.self, from: body)
    case 2: _ = try? reader.decode(AdyenIncoming.Modification.self, from: body)
    case 3: clientReads(AdyenPaymentMethodsResponse.self, response)
    case 4:
        if let payment = clientReads(AdyenPaymentResponse.self, response) { _ = (payment.result, payment.storedPaymentMethodID) }
    case 5: clientReads(AdyenModificationResponse.self, response)
    case 6: clientReads(AdyenStoredPaymentMethodsResponse.self, response)
    default:
        // The receiver: every item's signature, and what the log shows of it.
        switch AdyenWebhookBody.read(body) {
        case .standard(let items)?:
            for item in items { _ = (AdyenHMAC.isValid(item, key: key), item.signedPayload) }
        case .token(let token)?:
            _ = AdyenWebhookReceiver.isValidBodySignature(token.eventId, body: body, key: key)
        case nil:
            _ = AdyenHMAC.keyBytes(hex: String(decoding: body, as: UTF8.self))
        }
    }
    return 0
}

/// The sessions flow: `POST /sessions` validated as the route does, the component's calls read
/// (their method checked, a redirectResult decoded), and the client's decoders of each answer.
private func fuzzSessions(_ selector: UInt8, _ body: Data, _ response: ProviderResponse, _ reader: AdyenRequestReader) {
    switch selector {
    case 1:
        if let session = try? reader.decode(AdyenIncoming.Session.self, from: body) {
            _ = try? AdyenSessionRoutes.validate(session, now: Date(timeIntervalSince1970: 1_800_000_000))
        }
    case 2:
        if let call = try? reader.decode(AdyenIncoming.SessionCall.self, from: body) {
            if let method = call.paymentMethod { _ = try? AdyenPaymentValidation.checkMethod(method) }
            if let redirect = call.details?["redirectResult"] { _ = AdyenPaymentStore.Payment.decodeRedirectResult(redirect) }
        }
    case 3: clientReads(AdyenSessionResponse.self, response).map { _ = $0.storeMode }
    case 4:
        // The session's status decides, a payment code read from the same bytes words it.
        if let result = clientReads(AdyenSessionResultResponse.self, response) {
            let code = String(decoding: body.prefix(16), as: UTF8.self)
            _ = AdyenAdapter.decide(
                session: result.sessionStatus, resultCode: code, refusalReason: code, psp: result.payments?.first?.pspReference,
                details: result.additionalData ?? [:])
        }
    case 5: clientReads(AdyenSessionSetupResponse.self, response).map { _ = $0.paymentMethods.cashApp }
    case 6:
        if let payment = clientReads(AdyenSessionPaymentResponse.self, response) {
            _ = AdyenAdapter.decide(resultCode: payment.resultCode, refusalReason: payment.refusalReason, psp: nil, details: [:], payer: nil)
            _ = (payment.result, payment.action?.url, payment.sessionResult)
        }
    default:
        let text = String(decoding: body, as: UTF8.self)
        _ = (AdyenClientKey.isWellFormed(text), AdyenSessionRoutes.date(text), AdyenPaymentStore.Payment.decodeRedirectResult(text))
    }
}

@discardableResult
private func clientReads<Answer: Decodable>(_ type: Answer.Type, _ response: ProviderResponse) -> Answer? {
    do throws(AdyenFailure) {
        return try AdyenClient.decode(response) as Answer
    } catch {
        _ = "\(error)"
        return nil
    }
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzAdyenWire_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzAdyenWire($0, count) } ?? 0 }
}
#endif
