import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
@testable import Sandbox

/// Square's Payments API bodies from both sides. The first byte picks what reads the rest (its
/// low three bits) and, for the client, the answer's status (the next two): the bodies the
/// sandbox reads and checks (CreatePayment, whose payment the client must then read back;
/// complete; cancel by key), the client decoding an answer as `ProviderHTTPClient.decodeJSON`
/// does (Square's error body when the status is not 2xx) and what the offline uploader makes
/// of a failure, Square's bodies decoded on their own (each must read back after encoding), the
/// test cards' source ids and the sandbox's `delay_duration`s.
private let statuses = [200, 400, 402, 500]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSquareWire(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let body = Data(bytes: bytes + 1, count: count - 1)
    let response = ProviderResponse(status: statuses[Int(bytes[0] >> 3) & 3], headers: [], body: body)
    switch bytes[0] & 7 {
    case 0:
        if let answer: SquarePaymentResponse = readsBack(body) { answer.payment.map(touch) }
    case 1:
        if let list: SquareListPaymentsResponse = readsBack(body) { list.payments?.forEach(touch) }
    case 2:
        if let error: SquareErrorBody = readsBack(body) { _ = error.description }
    case 3: createRequest(body)
    case 4:
        if let answer: SquarePaymentResponse = clientReads(response) { answer.payment.map(touch) }
    case 5:
        if let list: SquareListPaymentsResponse = clientReads(response) { list.payments?.forEach(touch) }
    case 6:
        let text = String(decoding: body, as: UTF8.self)
        if let reading = SquareTestCard.reading(sourceID: text) {
            // A source id the sandbox knows is the nonce of that card read that way.
            guard reading.card.nonce(entry: reading.entry) == text else { fatalError("\(text) is not its card's nonce") }
        }
        _ = SquareTestCard.named(text)
        delayDuration(text)
    default:
        // The other bodies the sandbox reads: complete (an optional version token; an empty body
        // is `{}`) and cancel by key; and the client's own types for them.
        if let complete = try? SquareBody.parse(body, emptyIsObject: true) { _ = try? complete.string("version_token", bytes: 1...256) }
        if let cancel = try? SquareBody.parse(body) {
            _ = try? cancel.requiredString("idempotency_key", bytes: SquareCreatePayment.idempotencyKeyBytes)
        }
        let _: SquareCompletePaymentRequest? = readsBack(body)
        let _: SquareCancelByIdempotencyKeyRequest? = readsBack(body)
        // UpdatePayment's body (the tip added after authorization), as the client's type reads it.
        let _: SquareUpdatePaymentRequest? = readsBack(body)
    }
    return 0
}

/// CreatePayment as the sandbox reads and checks it (and the payment it makes, which the
/// client must read), and as the client's own type decodes it; then the body the offline
/// uploader would send for it (the same key, `offline_payment_details` added), which the
/// sandbox must take whenever it takes the request as the client sends it.
private func createRequest(_ body: Data) {
    _ = sandboxCreates(body)
    guard let request: SquareCreatePaymentRequest = readsBack(body) else { return }
    _ = SquareTestCard.reading(sourceID: request.sourceID)
    let queued = SquareOfflinePayment(
        localID: "offline-0000f022", createdAt: Date(timeIntervalSince1970: 1_763_850_000.123), request: request,
        cardBrand: "VISA", last4: "1111", entryMethod: "CONTACTLESS")
    let upload = SquareOfflineUploader.uploadRequest(for: queued)
    guard upload.idempotencyKey == request.idempotencyKey, upload.sourceID == request.sourceID,
        upload.offlinePaymentDetails?.clientCreatedAt == "2025-11-22T22:20:00.123Z"
    else { fatalError("the upload of \(request) is not the queued request") }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let original = try? encoder.encode(request), let sent = try? encoder.encode(upload), let parsed = try? SquareBody.parse(sent),
        let originalParsed = try? SquareBody.parse(original)
    else { fatalError("a request does not encode as an object") }
    guard (try? SquareCreatePayment.validate(originalParsed)) != nil else { return }
    do throws(SquareRejection) {
        let valid = try SquareCreatePayment.validate(parsed)
        guard valid.offline?.clientCreatedAt == "2025-11-22T22:20:00.123Z" else { fatalError("the sandbox lost offline_payment_details") }
    } catch {
        fatalError("the sandbox takes \(String(decoding: original, as: UTF8.self)) but refuses its upload \(String(decoding: sent, as: UTF8.self)): \(error)")
    }
}

/// The sandbox's CreatePayment up to the store: parse, check every field, read the nonce, make
/// the payment; what it answers must read in the client as that payment (a decline as Square's
/// error body, which the uploader takes for a decline). True when the body checked out.
private func sandboxCreates(_ body: Data) -> Bool {
    guard let parsed = try? SquareBody.parse(body) else { return false }
    _ = parsed.canonical
    guard let valid = try? SquareCreatePayment.validate(parsed) else { return false }
    // An unknown nonce and a used one are refused before any payment is made.
    guard let (card, entry) = SquareTestCard.reading(sourceID: valid.sourceID), card.errorCode != "CARD_TOKEN_USED" else { return true }
    let maxDelay = entry == .keyed ? SquareCreatePayment.cardNotPresentDelaySeconds : SquareCreatePayment.cardPresentDelaySeconds
    if let delay = valid.delaySeconds, delay > maxDelay { return true }
    let record = SquareCreatePayment.record(
        valid, card: card, entry: entry, maxDelay: maxDelay, now: Date(timeIntervalSince1970: 1_763_850_000), timeScale: 1,
        fingerprint: parsed.canonical, receiptBase: "http://127.0.0.1:8080")
    // A gift card never approves more than it holds; more than that is asked only with partial
    // authorization accepted (else it declines).
    if let balance = card.balance, record.status != "FAILED" {
        guard (record.payment.totalMoney?.amount ?? 0) <= balance, record.payment.approvedMoney == record.payment.totalMoney else {
            fatalError("the gift card approved \(record.payment.totalMoney?.amount ?? 0), more than its \(balance)")
        }
        let asked = valid.amount.amount + (valid.tip?.amount ?? 0)
        guard asked <= balance || valid.acceptPartialAuthorization else { fatalError("the gift card approved \(asked) without partial authorization") }
    }
    let status = record.status == "FAILED" ? 400 : 200
    let answer = ProviderResponse(status: status, headers: [], body: SquareJSON.data(record.response))
    do throws(SquareFailure) {
        let read: SquarePaymentResponse = try ProviderHTTPClient.decodeJSON(answer, errorBody: SquareErrorBody.self)
        guard status == 200, read.payment == record.payment else { fatalError("the client misread the sandbox's payment \(record.payment)") }
    } catch {
        guard case .api(400, let errorBody) = error, errorBody.payment == record.payment,
            case .declined = SquareOfflineUploader.verdict(error)
        else { fatalError("the client misread the sandbox's answer \(record.response): \(error)") }
    }
    return true
}

/// A `delay_duration` as the sandbox reads it; one it takes (up to the longest it allows) is
/// echoed in whole seconds, which must read back as those seconds.
private func delayDuration(_ text: String) {
    guard let seconds = SquareDuration.seconds(text), seconds <= SquareCreatePayment.cardNotPresentDelaySeconds else { return }
    let echoed = SquareDuration.text(seconds: seconds)
    guard SquareDuration.seconds(echoed) == seconds.rounded(.down) else { fatalError("\(text) echoes as \(echoed)") }
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

/// The client's decoding; a failure is said (as the log and the screen say it) and judged as
/// the offline uploader judges it.
private func clientReads<Answer: Decodable>(_ response: ProviderResponse) -> Answer? {
    do throws(SquareFailure) {
        let answer: Answer = try ProviderHTTPClient.decodeJSON(response, errorBody: SquareErrorBody.self)
        return answer
    } catch {
        _ = (error.description, error.responseLost)
        if case .api(let status, let body) = error {
            guard !response.isSuccess, status == response.status else { fatalError("a \(response.status) answer read as an API error \(status)") }
            _ = body.errors.first?.detail
        }
        _ = SquareOfflineUploader.verdict(error)
        return nil
    }
}

/// What the screen and the recovery read of a payment.
private func touch(_ payment: SquarePayment) {
    _ = (payment.id, payment.status, payment.totalMoney?.amount, payment.cardDetails?.card?.last4, payment.cardDetails?.entryMethod)
    _ = (payment.isOfflinePayment, payment.offlinePaymentDetails?.clientCreatedAt, payment.referenceID, payment.versionToken)
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzSquareWire_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzSquareWire($0, count) } ?? 0 }
}
#endif
