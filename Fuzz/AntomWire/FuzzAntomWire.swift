import Foundation
import FuzzAsync
import PaymentFlow
import ProviderClients
@testable import ProviderWire
@testable import Sandbox

/// Antom's wire from both sides. The first byte picks what reads the rest (its low four bits):
/// the answers and notifications the client decodes (createPaymentSession, inquiryPayment,
/// notifyPayment, the cashier the component loads, the acknowledgement; each must read back
/// after encoding), the display modes as `paymentMethodMetaData` and as the `--antom-mode`
/// spelling (a mode that reads must give back its own metaData and spelling), the sandbox's
/// `paymentSessionData`, the `Signature` header (its value must read back from the header made
/// of it, quote_plus must undo, and no input verifies under the sandbox's key), amounts' minor
/// units, Antom's times, and the sandbox's own readers of createPaymentSession (what it takes
/// must be taken again as this tool's client encodes it, and its answer read as that session)
/// and inquiryPayment (against a sandbox holding one open and one paid session).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAntomWire(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let body = Data(bytes: bytes + 1, count: count - 1)
    switch bytes[0] & 15 {
    case 0:
        if let answer: AntomCreatePaymentSessionResponse = readsBack(body) { touch(answer) }
    case 1:
        if let answer: AntomInquiryPaymentResponse = readsBack(body) { touch(answer) }
    case 2:
        if let notification: AntomNotifyPayment = readsBack(body) {
            _ = (notification.notifyType, notification.result.succeeded, notification.paymentAmount?.minorUnits)
            _ = notification.paymentTime.flatMap(AntomTime.date)
        }
    case 3:
        if let cashier: AntomCashier = readsBack(body) { touch(cashier) }
    case 4: metaData(String(decoding: body, as: UTF8.self))
    case 5: spelling(String(decoding: body, as: UTF8.self))
    case 6: sessionData(String(decoding: body, as: UTF8.self))
    case 7: signatureHeader(String(decoding: body, as: UTF8.self))
    case 8: minorUnits(String(decoding: body, as: UTF8.self))
    case 9: antomTime(String(decoding: body, as: UTF8.self))
    case 10:
        let _: AntomAcknowledgement? = readsBack(body)
        let _: AntomResultOnly? = readsBack(body)
        let _: AntomCreatePaymentSessionRequest? = readsBack(body)
        let _: AntomInquiryPaymentRequest? = readsBack(body)
    case 11: sandboxCreates(body)
    case 12: sandboxInquires(body)
    default:
        // Any body as every answer the client reads: an answer of one kind must not read back
        // wrongly as another.
        let _: AntomCreatePaymentSessionResponse? = readsBack(body)
        let _: AntomInquiryPaymentResponse? = readsBack(body)
        let _: AntomNotifyPayment? = readsBack(body)
        let _: AntomCashier? = readsBack(body)
    }
    return 0
}

/// `paymentMethodMetaData` as the sandbox reads it: a mode that reads gives back metaData and a
/// spelling that both read as that mode again.
private func metaData(_ text: String) {
    guard let mode = AntomDisplayMode(metaData: text) else { return }
    roundTrips(mode, from: "metaData \(text)")
}

/// `--antom-mode` as the app reads it; an error names what is allowed.
private func spelling(_ text: String) {
    do throws(AntomModeError) {
        let mode = try AntomDisplayMode(spelling: text)
        roundTrips(mode, from: "spelling \(text)")
    } catch {
        guard error.spelling == text, error.description.contains(AntomDisplayMode.allowed) else { fatalError("\(text): \(error)") }
    }
}

private func roundTrips(_ mode: AntomDisplayMode, from source: String) {
    guard AntomDisplayMode(metaData: mode.metaData) == mode else { fatalError("\(source) → \(mode), whose metaData \(mode.metaData) does not read back") }
    guard (try? AntomDisplayMode(spelling: mode.spelling)) == mode else { fatalError("\(source) → \(mode), whose spelling \(mode.spelling) does not read back") }
    // The banks it shows, for either kind of client, in each currency the sandbox takes.
    for currency in ["THB", "IDR", "USD"] {
        for client in AntomClientKind.allCases {
            let banks = AntomBankCatalogue.banks(for: mode, currency: currency, client: client)
            if case .singleBank(let name) = mode, banks.map(\.bankName) != [name] { fatalError("\(mode) shows \(banks.map(\.bankName))") }
        }
    }
}

/// The sandbox's `paymentSessionData`, as the component reads it: what reads must read back
/// from its own encoding (while that stays within the reader's bound on the base64 part).
private func sessionData(_ text: String) {
    guard let data = AntomSessionData(encoded: text) else { return }
    let encoded = data.encoded
    guard let head = encoded.components(separatedBy: "&&").first, head.count <= 8192 else { return }
    guard AntomSessionData(encoded: encoded) == data else { fatalError("session data \(data) does not read back from \(encoded)") }
}

/// The sandbox's public key: nothing the fuzzer makes may verify under it.
private let sandboxKey = try! AntomSignature.publicKey(AntomSandboxCredentials.sandboxPublicKey)

/// A `Signature` header as client and sandbox read it: an ASCII value (what signing makes) reads
/// back from the header made of it; quote_plus undoes; no value verifies under the sandbox's key.
private func signatureHeader(_ text: String) {
    guard AntomSignature.unquotePlus(AntomSignature.quotePlus(text)) == text else { fatalError("quote_plus does not undo for \(text.debugDescription)") }
    guard let value = AntomSignature.signatureValue(ofHeader: text) else { return }
    guard !value.isEmpty else { fatalError("\(text.debugDescription) read as an empty signature") }
    if value.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "," }) {
        let header = AntomSignature.header(signature: value)
        guard AntomSignature.signatureValue(ofHeader: header) == value else { fatalError("\(value.debugDescription) does not read back from \(header)") }
    }
    let content = AntomSignature.content(
        method: "POST", path: "/ams/sandbox/api/v1/payments/inquiryPayment", clientID: AntomSandboxCredentials.clientID,
        time: "2026-11-23T10:00:00+00:00", body: Data(text.utf8))
    guard !AntomSignature.verify(value, of: content, with: sandboxKey) else { fatalError("\(value) verified under the sandbox's key") }
}

/// `value` of an amount: minor units are a plain non-negative integer, and read back.
private func minorUnits(_ text: String) {
    guard let units = AntomAmount(currency: "THB", value: text).minorUnits else { return }
    guard units >= 0, AntomAmount(currency: "THB", minorUnits: units).minorUnits == units else { fatalError("\(text) read as \(units)") }
    guard text.allSatisfy({ $0.isASCII && $0.isNumber }) else { fatalError("\(text.debugDescription) read as \(units)") }
}

/// An Antom time (`paymentTime`, `paymentSessionExpiryTime`): one that reads, in years 1970 to
/// 9999, is written back (whole seconds, UTC) as a time that reads within a second of it.
/// (Foundation's ISO 8601 reader is lenient — `0-1-3T1:5.3Z` reads, as a date in year 0, which
/// is written as year 0001 — so dates outside Antom's range are only read.)
private let latestTime = Date(timeIntervalSince1970: 253_402_300_799)  // 9999-12-31T23:59:59Z

private func antomTime(_ text: String) {
    guard let date = AntomTime.date(text), date.timeIntervalSince1970 >= 0, date <= latestTime else { return }
    let written = AntomTime.string(date)
    guard let again = AntomTime.date(written), abs(again.timeIntervalSince(date)) < 1 else {
        fatalError("\(text) read as \(date), written \(written), which does not read back")
    }
}

// MARK: - The sandbox's readers

/// The sandbox's clock, fixed: expiry times are judged against it.
private let fuzzNow = Date(timeIntervalSince1970: 1_800_000_000)

/// createPaymentSession as the sandbox reads it (every field checked). A refusal is an F result
/// the client reads back; a body it takes must be taken again, the same, as this tool's client
/// encodes the request it read, and what the sandbox answers must read in the client as that
/// session (its session data pointing at its cashier).
private func sandboxCreates(_ body: Data) {
    guard let fields = try? AntomFields.parse(body) else { return }
    let canonical = fields.canonical
    guard let canonicalFields = try? AntomFields.parse(canonical), canonicalFields.canonical == canonical else {
        fatalError("the canonical form of a body does not read back: \(String(decoding: canonical, as: UTF8.self))")
    }
    let valid: AntomCreatePaymentSession.Valid
    do throws(AntomRejection) {
        valid = try AntomCreatePaymentSession.validate(fields, now: fuzzNow)
    } catch {
        guard error.result.resultStatus == "F", ["PARAM_ILLEGAL", "CURRENCY_NOT_SUPPORT"].contains(error.result.resultCode), error.status == .ok else {
            fatalError("createPaymentSession refused with \(error.result) (HTTP \(error.status))")
        }
        guard let _: AntomResultOnly = readsBack(AntomJSON.data(AntomResultOnly(result: error.result))) else { fatalError("\(error.result) does not read") }
        return
    }
    guard AntomDisplayMode(metaData: valid.request.paymentMethod.paymentMethodMetaData ?? "") == valid.mode,
        valid.request.paymentAmount.minorUnits == valid.minorUnits
    else { fatalError("the sandbox read \(valid.mode), \(valid.minorUnits) from \(valid.request)") }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let sent = try? encoder.encode(valid.request) else { fatalError("\(valid.request) does not encode") }
    do throws(AntomRejection) {
        guard let again = try? AntomFields.parse(sent) else { fatalError("\(String(decoding: sent, as: UTF8.self)) is not an object") }
        let revalidated = try AntomCreatePaymentSession.validate(again, now: fuzzNow)
        guard revalidated.request == valid.request, revalidated.mode == valid.mode, revalidated.minorUnits == valid.minorUnits else {
            fatalError("the client's encoding \(String(decoding: sent, as: UTF8.self)) reads as \(revalidated.request), not \(valid.request)")
        }
    } catch {
        fatalError("the sandbox takes \(String(decoding: body, as: UTF8.self)) but refuses the client's encoding of it: \(error.result)")
    }
    let record = AntomSessionRecord(
        id: "SBXSESSIONfuzz0000000000000000000000000", clientID: AntomSandboxCredentials.clientID, request: valid.request,
        fingerprint: canonical, mode: valid.mode, minorUnits: valid.minorUnits, createdAt: fuzzNow,
        expiresAt: valid.expiry.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) } ?? fuzzNow.addingTimeInterval(3_600),
        base: "http://127.0.0.1:8080", sequence: 1)
    let answer = AntomCreatePaymentSession.response(for: record)
    guard let read = try? JSONDecoder().decode(AntomCreatePaymentSessionResponse.self, from: AntomJSON.data(answer)), read == answer else {
        fatalError("the client misreads the sandbox's answer \(answer)")
    }
    guard read.paymentSessionId == record.id, read.paymentSessionExpiryTime.flatMap(AntomTime.date) == record.expiresAt else {
        fatalError("the answer \(read) is not session \(record.id) expiring \(record.expiresAt)")
    }
    if valid.minorUnits != AntomMagic.unreadableSessionData {
        guard let data = read.paymentSessionData.flatMap(AntomSessionData.init(encoded:)), data.paymentSessionId == record.id,
            data.cashierUrl == record.cashierURL(base: record.base)
        else { fatalError("the session data of \(read) does not lead to its cashier") }
    }
    _ = (record.banks, record.inquiry, record.notification)
}

/// A sandbox with two sessions of the built-in client: `fuzz-processing` (PROCESSING) and
/// `fuzz-paid` (paid with SCB). No notifier sink is set, so nothing is sent anywhere. The
/// fingerprints are short enough for `Data` to keep inline: a heap one, held in the store's
/// dictionary behind an enum whose spare pointer bits carry its case, is one LeakSanitizer
/// cannot see as reachable and reports at exit.
private let fuzzAPI: AntomAPI = blocking {
    let settings = SandboxSettings(now: { fuzzNow })
    let signer = AntomSigner(key: { AntomSigner.sandboxKey }, now: settings.now)
    let api = AntomAPI(
        store: AntomSessionStore(storage: MemoryStorage()), clients: AntomClients(storage: MemoryStorage()), settings: settings, signer: signer,
        notifier: AntomNotifier(webhooks: WebhookDispatcher(settings: settings), signer: signer))
    for (index, name) in ["fuzz-processing", "fuzz-paid"].enumerated() {
        let amount = AntomAmount(currency: "THB", value: "129000")
        let request = AntomCreatePaymentSessionRequest(
            paymentRequestId: name, paymentAmount: amount,
            order: AntomOrder(referenceOrderId: "order-\(name)", orderDescription: "Terminal checkout", orderAmount: amount),
            paymentMethod: AntomPaymentMethod(paymentMethodMetaData: AntomDisplayMode.bankCountry("TH").metaData), paymentNotifyUrl: nil,
            paymentRedirectUrl: "https://shop.example/return", settlementStrategy: AntomSettlementStrategy(settlementCurrency: "USD"))
        let fingerprint = Data("fp-\(index)".utf8)
        let outcome = try! await api.store.create(
            clientID: api.clients.builtIn.id, paymentRequestId: name, referenceOrderId: request.order.referenceOrderId, fingerprint: fingerprint,
            now: fuzzNow, limits: api.limits
        ) { sequence in
            AntomSessionRecord(
                id: "SBXSESSIONfuzz\(index)", clientID: api.clients.builtIn.id, request: request, fingerprint: fingerprint,
                mode: .bankCountry("TH"), minorUnits: 129_000, createdAt: fuzzNow, expiresAt: fuzzNow.addingTimeInterval(3_600),
                base: "http://127.0.0.1:8080", sequence: sequence)
        }
        guard case .created(let record) = outcome else { fatalError("the fuzz sandbox could not make \(name)") }
        if name == "fuzz-paid" { _ = try! await api.store.act(.pay(bank: "SCB"), on: record.id, now: fuzzNow, pendingDelay: 0) }
    }
    return api
}

/// inquiryPayment as the sandbox reads it: a refusal is PARAM_ILLEGAL or ORDER_NOT_EXIST; a
/// payment found is the one asked for (paymentId wins) and reads back in the client.
private func sandboxInquires(_ body: Data) {
    let inquired = blocking { () async -> Result<AntomInquiryPaymentResponse, AntomRejection> in
        do {
            return .success(try await fuzzAPI.inquire(client: fuzzAPI.clients.builtIn, body: body))
        } catch let rejection as AntomRejection {
            return .failure(rejection)
        } catch {
            fatalError("the memory store failed: \(error)")
        }
    }
    do throws(AntomRejection) {
        let answer = try inquired.get()
        guard let read = try? JSONDecoder().decode(AntomInquiryPaymentResponse.self, from: AntomJSON.data(answer)), read == answer else {
            fatalError("the client misreads the sandbox's inquiry answer \(answer)")
        }
        let asked = try? JSONDecoder().decode(AntomInquiryPaymentRequest.self, from: body)
        if let asked, let paymentId = asked.paymentId {
            guard read.paymentId == paymentId else { fatalError("asked for \(paymentId), answered \(read)") }
        } else if let asked, let requestId = asked.paymentRequestId {
            guard read.paymentRequestId == requestId else { fatalError("asked for \(requestId), answered \(read)") }
        }
        guard read.result.succeeded, let status = read.status, read.paymentAmount?.minorUnits == 129_000 else { fatalError("inquiry answered \(read)") }
        guard (status == .success) == (read.paymentId != nil) else { fatalError("a \(status) payment with paymentId \(read.paymentId ?? "nil")") }
    } catch {
        guard error.result.resultStatus == "F", ["PARAM_ILLEGAL", "ORDER_NOT_EXIST"].contains(error.result.resultCode) else {
            fatalError("inquiryPayment refused with \(error.result)")
        }
    }
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

/// What the flow reads of a session: its data (for the component) and expiry.
private func touch(_ answer: AntomCreatePaymentSessionResponse) {
    _ = (answer.result.succeeded, answer.paymentSessionId, answer.normalUrl)
    _ = answer.paymentSessionData.flatMap(AntomSessionData.init(encoded:))
    _ = answer.paymentSessionExpiryTime.flatMap(AntomTime.date)
}

/// What the flow reads of an inquiry: a status it knows is spelled as sent.
private func touch(_ answer: AntomInquiryPaymentResponse) {
    if let status = answer.status {
        guard status.rawValue == answer.paymentStatus else { fatalError("\(answer.paymentStatus ?? "nil") read as \(status)") }
        _ = status.isFinal
    }
    _ = (answer.result.succeeded, answer.paymentAmount?.minorUnits, answer.paymentResultCode)
    _ = answer.paymentTime.flatMap(AntomTime.date)
}

/// What the component reads of the cashier: the mode's spelling, each bank and its kinds.
private func touch(_ cashier: AntomCashier) {
    if let mode = try? AntomDisplayMode(spelling: cashier.displayMode) { roundTrips(mode, from: "cashier displayMode \(cashier.displayMode)") }
    _ = cashier.paymentAmount.minorUnits
    _ = cashier.paymentSessionExpiryTime.flatMap(AntomTime.date)
    for bank in cashier.banks { _ = (AntomBankCatalogue.bank(named: bank.bankName), bank.categories.map(\.rawValue)) }
}

#if FUZZ_SMOKE
import FuzzDriver

/// The entry point of `make fuzz-smoke`'s build (see FuzzDriver).
@_cdecl("FuzzAntomWire_main")
func smokeMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runLibFuzzer(argc, argv) { bytes, count in bytes.map { fuzzAntomWire($0, count) } ?? 0 }
}
#endif
