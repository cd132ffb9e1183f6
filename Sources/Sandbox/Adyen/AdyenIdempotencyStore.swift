import Foundation

/// `Idempotency-Key` records: the first answer to a key is kept and replayed for the same
/// request; a different request with the key, or one while the first is still running, is
/// refused with `704`. Keys are scoped by API key (Adyen scopes them by company account) and
/// forgotten after the retention age or when the store is full, oldest first.
///
/// The in-progress mark is a lease: Adyen answers "in progress" only while a request really is.
/// A mark older than `inProgressLease` belongs to a request that ended without an answer (its
/// instance was killed, or its database went away mid-request; its transaction was then rolled
/// back, so nothing of it was kept): the next request with the key takes it over and runs.
final class AdyenIdempotencyStore: Sendable {
    /// How long a request may hold its key unanswered: past every bound on a request's work
    /// (a database statement, or a transaction a stopped instance left open, ends within 60 s).
    static let inProgressLease: TimeInterval = 120

    enum Begin: Sendable {
        case fresh
        case replay(status: Int, body: Data)
        case inProgress
        case mismatch
    }

    struct Record: StoredRecord, Codable, Equatable {
        let scopedKey: String
        let fingerprint: Data
        var answer: Answer?
        /// When the request holding the key (unanswered) began; nil in records kept before leases.
        var startedAt: Date?

        var storeKey: String { scopedKey }
        var storeIdempotencyKey: String? { scopedKey }
    }

    /// The first answer to a key, replayed for the same request.
    struct Answer: Codable, Equatable {
        let status: Int
        let body: Data
    }

    private let records: ProviderStore<Record>

    init(storage: any SandboxStorage) {
        records = ProviderStore("adyen.idempotency", in: storage)
    }

    /// A request's identity: its path and its JSON with keys sorted, so key order and spacing
    /// do not make the same request look different. Kept in the shared store: every instance must
    /// write the same bytes, JSONSerialization's (`AdyenSortedJSON` writes them for plain bodies).
    static func fingerprint(path: String, body: Data) -> Data {
        Data(path.utf8) + Data([0]) + (AdyenSortedJSON.sortedKeys(body) ?? serializedWithSortedKeys(body) ?? body)
    }

    /// JSONSerialization's JSON with keys sorted; nil when it cannot read the body.
    static func serializedWithSortedKeys(_ body: Data) -> Data? {
        (try? JSONSerialization.jsonObject(with: body)).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
    }

    func begin(scope: String, key: String, fingerprint: Data, now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> Begin {
        let scoped = scope + "\u{0}" + key
        let outcome = try await records.create(
            idempotencyKey: scoped, at: StoreMoment(now: now, limits: limits), sameRequest: { $0.fingerprint == fingerprint }
        ) { _ in Record(scopedKey: scoped, fingerprint: fingerprint, startedAt: now) }
        switch outcome {
        case .created: return .fresh
        case .keyReused, .claimTaken: return .mismatch
        case .replayed(let record):
            if let answer = record.answer { return .replay(status: answer.status, body: answer.body) }
            if let started = record.startedAt, now.timeIntervalSince(started) < Self.inProgressLease { return .inProgress }
            // The lease ran out: take the key over, unless another request just did (or answered).
            let taken = try await records.update(.key(scoped)) { kept -> Bool in
                guard kept.answer == nil, kept.startedAt == record.startedAt else { return false }
                kept.startedAt = now
                return true
            }.value
            return taken == true ? .fresh : .inProgress
        }
    }

    /// Keeps the answer a successful request got, to replay it.
    func finish(scope: String, key: String, status: Int, body: Data) async throws(SandboxStoreUnavailable) {
        _ = try await records.update(.key(scope + "\u{0}" + key)) { $0.answer = Answer(status: status, body: body) }
    }

    /// Forgets a key whose request was refused, so it can be used again (Adyen keeps no record
    /// of requests it rejected before processing).
    func release(scope: String, key: String) async throws(SandboxStoreUnavailable) {
        _ = try await records.remove(scope + "\u{0}" + key)
    }
}
