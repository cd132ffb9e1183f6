import Foundation

/// `Idempotency-Key` records: the first answer to a key is kept and replayed for the same
/// request; a different request with the key, or one while the first is still running, is
/// refused with `704`. Keys are scoped by API key (Adyen scopes them by company account) and
/// forgotten after the retention age or when the store is full, oldest first.
final class AdyenIdempotencyStore: Sendable {
    enum Begin: Sendable {
        case fresh
        case replay(status: Int, body: Data)
        case inProgress
        case mismatch
    }

    private struct Record: StoredRecord {
        let scopedKey: String
        let fingerprint: Data
        var answer: (status: Int, body: Data)?

        var storeKey: String { scopedKey }
        var storeIdempotencyKey: String? { scopedKey }
    }

    private let records = MemoryRecordStore<Record>()

    /// A request's identity: its path and its JSON with keys sorted, so key order and spacing
    /// do not make the same request look different.
    static func fingerprint(path: String, body: Data) -> Data {
        let canonical = (try? JSONSerialization.jsonObject(with: body)).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        return Data(path.utf8) + Data([0]) + (canonical ?? body)
    }

    func begin(scope: String, key: String, fingerprint: Data, now: Date, limits: SandboxLimits) -> Begin {
        let scoped = scope + "\u{0}" + key
        let outcome = records.create(
            idempotencyKey: scoped, at: StoreMoment(now: now, limits: limits), sameRequest: { $0.fingerprint == fingerprint }
        ) { _ in Record(scopedKey: scoped, fingerprint: fingerprint) }
        switch outcome {
        case .created: return .fresh
        case .keyReused, .claimTaken: return .mismatch
        case .replayed(let record):
            guard let answer = record.answer else { return .inProgress }
            return .replay(status: answer.status, body: answer.body)
        }
    }

    /// Keeps the answer a successful request got, to replay it.
    func finish(scope: String, key: String, status: Int, body: Data) {
        _ = records.update(.key(scope + "\u{0}" + key)) { $0.answer = (status, body) }
    }

    /// Forgets a key whose request was refused, so it can be used again (Adyen keeps no record
    /// of requests it rejected before processing).
    func release(scope: String, key: String) {
        _ = records.remove(scope + "\u{0}" + key)
    }
}
