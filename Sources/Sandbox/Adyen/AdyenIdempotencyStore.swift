import Foundation
import Synchronization

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

    private struct Record: Sendable {
        let fingerprint: Data
        var answer: (status: Int, body: Data)?
    }

    private struct State: Sendable {
        var records: [String: Record] = [:]
        var age = RetentionQueue()
    }

    private let state = Mutex(State())

    /// A request's identity: its path and its JSON with keys sorted, so key order and spacing
    /// do not make the same request look different.
    static func fingerprint(path: String, body: Data) -> Data {
        let canonical = (try? JSONSerialization.jsonObject(with: body)).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        return Data(path.utf8) + Data([0]) + (canonical ?? body)
    }

    func begin(scope: String, key: String, fingerprint: Data, now: Date, limits: SandboxLimits) -> Begin {
        let scoped = scope + "\u{0}" + key
        return state.withLock { state in
            for gone in state.age.evict(now: now, retention: limits.requestRetention, capacity: limits.maxStoredRequests) {
                state.records.removeValue(forKey: gone)
            }
            if let record = state.records[scoped] {
                guard record.fingerprint == fingerprint else { return .mismatch }
                guard let answer = record.answer else { return .inProgress }
                return .replay(status: answer.status, body: answer.body)
            }
            for gone in state.age.evict(now: now, retention: limits.requestRetention, capacity: limits.maxStoredRequests - 1) {
                state.records.removeValue(forKey: gone)
            }
            state.records[scoped] = Record(fingerprint: fingerprint)
            state.age.append(scoped, createdAt: now)
            return .fresh
        }
    }

    /// Keeps the answer a successful request got, to replay it.
    func finish(scope: String, key: String, status: Int, body: Data) {
        state.withLock { $0.records[scope + "\u{0}" + key]?.answer = (status, body) }
    }

    /// Forgets a key whose request was refused, so it can be used again (Adyen keeps no record
    /// of requests it rejected before processing).
    func release(scope: String, key: String) {
        state.withLock { _ = $0.records.removeValue(forKey: scope + "\u{0}" + key) }
    }
}
