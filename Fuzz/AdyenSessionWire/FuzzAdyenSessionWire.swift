import Foundation
@testable import PaymentFlow
@testable import ProviderClients
import ProviderWire

/// The client's side of Adyen's sessions flow: the answers it decodes (an error body when the
/// status is not 2xx) and what it decides from them. The first byte picks the answer (low
/// bits) and the status (its top bit: 2xx or 4xx): `POST /sessions`, `GET /sessions/{id}`, the
/// component's setup, payments and paymentDetails; a decoded session result and payment
/// answer go through the adapter's decision as a checkout would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdyenSessionWire(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let body = Data(bytes: bytes + 1, count: count - 1)
    let status = bytes[0] & 0x80 == 0 ? 200 + Int(bytes[0] & 0x01) : 400 + Int(bytes[0] & 0x1F)
    let response = ProviderResponse(status: status, headers: [(name: "pspReference", value: "FUZZ0000FUZZ0000")], body: body)
    switch bytes[0] & 0x07 {
    case 0:
        if let session = clientReads(AdyenSessionResponse.self, response) { _ = (session.storeMode, session.sessionData?.count) }
    case 1:
        if let result = clientReads(AdyenSessionResultResponse.self, response) {
            _ = AdyenAdapter.decide(
                session: result.sessionStatus, resultCode: "Authorised", refusalReason: nil,
                psp: result.payments?.first?.pspReference, details: result.additionalData ?? [:])
        }
    case 2:
        if let setup = clientReads(AdyenSessionSetupResponse.self, response) {
            _ = (setup.paymentMethods.cashApp?.configuration?.clientId, setup.paymentMethods.storedPaymentMethods?.map(\.id), setup.configuration)
        }
    case 3, 4:
        if let payment = clientReads(AdyenSessionPaymentResponse.self, response) {
            _ = AdyenAdapter.decide(resultCode: payment.resultCode, refusalReason: payment.refusalReason, psp: nil, details: [:], payer: nil)
            _ = (payment.result, payment.action?.url, payment.sessionResult)
        }
    default:
        // Both read together: the session's status decides, the payment's code words it.
        if let result = clientReads(AdyenSessionResultResponse.self, response),
            let code = String(data: body.prefix(16), encoding: .utf8)
        {
            _ = AdyenAdapter.decide(session: result.sessionStatus, resultCode: code, refusalReason: code, psp: nil, details: [:])
        }
    }
    return 0
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
@_cdecl("FuzzAdyenSessionWire_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzAdyenSessionWire($0, count) } ?? 0 }
}
#endif
