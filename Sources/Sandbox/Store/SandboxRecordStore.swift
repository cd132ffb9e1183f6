import Foundation

/// How long a store keeps records: those `age` seconds old or older go, then the oldest beyond
/// `capacity`.
struct Retention: Sendable, Hashable {
    var age: TimeInterval
    var capacity: Int

    init(age: TimeInterval, capacity: Int) {
        self.age = age
        self.capacity = capacity
    }

    /// What `checkout sandbox` sets for every provider's records.
    init(_ limits: SandboxLimits) {
        self.init(age: limits.requestRetention, capacity: limits.maxStoredRequests)
    }
}

/// When an operation runs: first its store's open records are settled to `now` and, with a
/// retention, the old are forgotten. An operation given no moment sees the records as they are.
struct StoreMoment: Sendable {
    let now: Date
    let retention: Retention?

    init(now: Date, retention: Retention? = nil) {
        self.now = now
        self.retention = retention
    }

    init(now: Date, limits: SandboxLimits) {
        self.init(now: now, retention: Retention(limits))
    }
}

/// What a store does with a provider's records beyond keeping them: how time changes an open
/// record, who hears of it, and which records a full store forgets first.
struct StorePolicy<Record: StoredRecord>: Sendable {
    /// Time's effect on an open record at `now`: true when it changed it.
    var settle: (@Sendable (inout Record, Date) -> Bool)?
    /// Told, after the unit of work, of every record settling changed.
    var onSettled: (@Sendable ([Record]) -> Void)?
    /// Past the capacity, the oldest settled record goes before any open one.
    var forgetsSettledFirst: Bool
    /// A hint: the earliest time `settle` could change this open record (nil: at any time). A
    /// database store then visits only the open records that are due instead of reading every
    /// open one on each operation; `settle` must change nothing before that time.
    var settlesAt: (@Sendable (Record) -> Date?)?

    init(
        settle: (@Sendable (inout Record, Date) -> Bool)? = nil, onSettled: (@Sendable ([Record]) -> Void)? = nil,
        forgetsSettledFirst: Bool = false, settlesAt: (@Sendable (Record) -> Date?)? = nil
    ) {
        self.settle = settle
        self.onSettled = onSettled
        self.forgetsSettledFirst = forgetsSettledFirst
        self.settlesAt = settlesAt
    }
}

/// How an operation finds one record.
enum RecordLookup: Sendable, Hashable {
    case key(String)
    case idempotencyKey(String)
    case claim(String)
}

/// What a create came to.
enum RecordCreation<Record: Sendable>: Sendable {
    case created(Record)
    /// The idempotency key is known and the request is the same: the record it made, unchanged.
    case replayed(Record)
    /// The idempotency key is known but came with another request: the provider answers its own error.
    case keyReused(Record)
    /// A claim the new record needed is held by this record.
    case claimTaken(Record)
}

/// What an update came to.
enum RecordUpdate<Value, Record: Sendable> {
    case changed(Value)
    case notFound
    /// The change would have taken a claim this record holds: nothing was changed.
    case claimTaken(Record)

    /// What the change returned, nil when nothing was changed.
    var value: Value? {
        if case .changed(let value) = self { value } else { nil }
    }
}

/// What one provider's sandbox keeps: records by key, kept for a retention age and up to a
/// count; idempotency keys (the same key and request replays, the same key with another request
/// is detected); claims that one record at a time may hold; and, read in creation order, the
/// ledger of what money moved. Every requirement is one unit of work, so two racing requests are
/// resolved by the store (one lock in memory, one transaction in a database), never by a check
/// and a later insert. Closures run inside the unit of work and must not wait on anything; a
/// database store may run them again when the database makes it retry the unit (a deadlock), so
/// what they decide must rest on the records they are given.
///
/// The requirements are `async throws` for a database; the in-memory store meets them
/// synchronously, and a provider holding it calls it with neither.
protocol SandboxRecordStore<Record>: Sendable {
    associatedtype Record: StoredRecord

    /// Keeps the record `make` builds (given its creation number: numbers rise in creation order,
    /// not always one by one) unless `idempotencyKey` is
    /// known (then `sameRequest` tells a replay from a reuse) or a claim in `claims` is held.
    /// The records of the new record's group pass through `alongside` (with the new record) first.
    func create(
        idempotencyKey: String?, requiring claims: [String], at moment: StoreMoment, sameRequest: (Record) -> Bool,
        alongside: (_ member: inout Record, _ new: Record) -> Void, make: (_ sequence: Int) -> Record
    ) async throws -> RecordCreation<Record>

    func record(_ lookup: RecordLookup, at moment: StoreMoment?) async throws -> Record?

    /// Changes one record; a change that would take a claim another record holds is not kept.
    /// `change` may run more than once (first on a copy, to learn whether it changes anything).
    func update<Value>(_ lookup: RecordLookup, at moment: StoreMoment?, _ change: (inout Record) -> Value) async throws
        -> RecordUpdate<Value, Record>

    /// Removes the record under `key` when `condition` holds for it.
    func remove(_ key: String, if condition: (Record) -> Bool) async throws -> Record?

    /// Every record, in creation order.
    func records(at moment: StoreMoment?) async throws -> [Record]

    /// A record `predicate` holds for, if any (in no particular order).
    func first(at moment: StoreMoment?, where predicate: (Record) -> Bool) async throws -> Record?

    /// Applies time and retention alone, for reads about to follow.
    func settle(at moment: StoreMoment) async throws

    func count() async throws -> Int

    /// Claims up to `limit` open records for the caller (a work queue): each open record the
    /// policy's `settlesAt` says is due at `now` is passed to `claim`, which marks it claimed (a
    /// lease) and returns true, or returns false and leaves it. The claimed ones are kept and
    /// returned. Records another instance is claiming at the same moment are skipped, not waited
    /// for (`FOR UPDATE SKIP LOCKED`), so two workers never claim one record.
    func claimDue(now: Date, limit: Int, _ claim: (inout Record) -> Bool) async throws -> [Record]
}

extension SandboxRecordStore {
    /// For stores with nothing better (test doubles): every record, each claimed by an update.
    func claimDue(now: Date, limit: Int, _ claim: (inout Record) -> Bool) async throws -> [Record] {
        var claimed: [Record] = []
        for record in try await records(at: nil) where record.storeIsOpen && claimed.count < limit {
            let taken = try await update(.key(record.storeKey), at: nil) { kept -> Record? in
                var copy = kept
                guard claim(&copy) else { return nil }
                kept = copy
                return copy
            }
            if let taken = taken.value ?? nil { claimed.append(taken) }
        }
        return claimed
    }
}
