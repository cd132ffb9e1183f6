import Foundation
import Logging
import PostgresNIO
import Synchronization

/// One store's records in PostgreSQL (the tables of `PostgresSchema`, rows whose `store` is
/// `name`), shared by every instance on the database. Each requirement is one unit of work
/// (`PostgresStorage.unit`: one transaction, tried again on a deadlock); the closures a caller
/// passes run inside it on decoded records, after their rows are locked.
final class PostgresRecordStore<Record: StoredRecord & Codable>: SandboxRecordStore, Sendable {
    let name: String
    let storage: PostgresStorage
    let policy: StorePolicy<Record>
    /// Creates since this instance last made room by count (`trimsByCount`).
    private let createsSinceTrim = Mutex(0)
    /// When (in the moments' time) this instance last forgot the aged (`forgetAgedNowAndThen`).
    private let agedForgottenAt = Mutex(-Double.infinity)
    /// Records by the JSON last written or read for them: decoded once.
    private let decoded = DecodedRecordCache<Record>()

    init(name: String, storage: PostgresStorage, policy: StorePolicy<Record>) {
        self.name = name
        self.storage = storage
        self.policy = policy
    }

    private var logger: Logger { storage.logger }

    // MARK: - Requirements

    func create(
        idempotencyKey: String?, requiring claims: [String], at moment: StoreMoment, sameRequest: (Record) -> Bool,
        alongside: (_ member: inout Record, _ new: Record) -> Void, make: (_ sequence: Int) -> Record
    ) async throws -> RecordCreation<Record> {
        let trims = moment.retention.map(trimsByCount) ?? false
        if let created = try await createInOneStatement(idempotencyKey: idempotencyKey, claims: claims, at: moment, make: make) {
            if trims, let retention = moment.retention {
                // The room by count is made after the create, in a unit of its own: the create
                // stays one statement, and the store holds `capacity` once both are done.
                try await storage.unit("trim", store: name) { db in
                    try await trim(db, keep: retention.capacity)
                    return .commit
                }
            }
            return created
        }
        var outcome: RecordCreation<Record>?
        var settled: [Record] = []
        try await storage.unit("create", store: name) { db in
            settled = []
            try await settleDue(moment, db, settled: &settled)
            // Everything from here is undone together when a claim turns out to be taken
            // (time's changes above are kept, as the in-memory store keeps them).
            let guarded = !claims.isEmpty
            if guarded { try await db.query("SAVEPOINT creating", logger: logger) }

            // A creation number from the database's sequence: no row is held for it, so creates
            // in one store, from any instance, go at the same time. The unique key decides a race
            // for an idempotency key: the loser waits for the winner's commit, then finds its record.
            let sequence: Int
            if let idempotencyKey {
                guard
                    let reserved = try await number(
                        db,
                        """
                        INSERT INTO sandbox_idempotency_keys (store, idempotency_key) VALUES (\(name), \(idempotencyKey))
                        ON CONFLICT DO NOTHING RETURNING nextval('sandbox_record_numbers')
                        """)
                else {
                    // Its record was forgotten since the key was found: try again (the key is gone too).
                    guard let existing = try await records(db, lookup(.idempotencyKey(idempotencyKey), locking: false)).first else {
                        throw PostgresLostRace()
                    }
                    outcome = sameRequest(existing.record) ? .replayed(existing.record) : .keyReused(existing.record)
                    return .commit
                }
                sequence = reserved
            } else {
                sequence = try await number(db, "SELECT nextval('sandbox_record_numbers')") ?? 0
            }

            if guarded, let holder = try await holder(db, of: claims, otherThan: nil) {
                try await db.query("ROLLBACK TO SAVEPOINT creating", logger: logger)
                outcome = .claimTaken(holder)
                return .commit
            }
            // Room for the new one, by count now and then (`trimsByCount`); by age each time, in
            // the insert's own statement.
            var oldestKept: Double?
            if let retention = moment.retention {
                if trims {
                    try await forget(db, now: moment.now, retention: retention, keep: retention.capacity - 1)
                } else {
                    oldestKept = moment.now.timeIntervalSinceReferenceDate - retention.age
                }
            }

            let record = make(sequence)
            let key = record.storeKey
            if let group = record.storeGroup {
                let members = try await records(
                    db,
                    """
                    SELECT key, body FROM sandbox_records WHERE store = \(name) AND record_group = \(group)
                    ORDER BY sequence FOR UPDATE
                    """)
                for member in members {
                    var changed = member.record
                    alongside(&changed, record)
                    _ = try await write(db, key: member.key, before: member.record, after: changed)
                }
            }
            // The idempotency index names the record that holds the key: the reservation above
            // is pointed at it in the insert's statement, or dropped when the record keeps another.
            let recordsKey = record.storeIdempotencyKey
            let naming = recordsKey == idempotencyKey ? idempotencyKey : nil
            try await insert(db, record, sequence: sequence, createdAt: moment.now, forgettingFrom: oldestKept, naming: naming)
            if let idempotencyKey, naming == nil {
                try await db.query(
                    "DELETE FROM sandbox_idempotency_keys WHERE store = \(name) AND idempotency_key = \(idempotencyKey)", logger: logger)
            }
            if let recordsKey, recordsKey != idempotencyKey {
                try await db.query(
                    """
                    INSERT INTO sandbox_idempotency_keys (store, idempotency_key, record_key) VALUES (\(name), \(recordsKey), \(key))
                    ON CONFLICT (store, idempotency_key) DO UPDATE SET record_key = EXCLUDED.record_key
                    """, logger: logger)
            }

            // Its claims: the unique key refuses one another record holds, even one taken a moment ago.
            if let holder = try await take(db, claims: Set(record.storeClaims), for: key) {
                outcome = .claimTaken(holder)
                guard guarded else {
                    settled = []
                    return .rollback
                }
                try await db.query("ROLLBACK TO SAVEPOINT creating", logger: logger)
                return .commit
            }
            outcome = .created(record)
            return .commit
        }
        tell(settled)
        guard let outcome else { throw PostgresStoreError.failed(operation: "create", store: name, reason: "no outcome") }
        return outcome
    }

    /// The common create in one statement and no transaction: a record whose body omits its
    /// number (numbered by the insert itself), under a new idempotency key, with nothing to
    /// settle, no claim, no group and no room to make by count. Reserving the key, forgetting
    /// the aged and inserting are one statement, so all or none of it is kept. Nil when that key
    /// is known already (or the record's key is taken, or an operation's transaction is open):
    /// the full unit then decides.
    private func createInOneStatement(
        idempotencyKey: String?, claims: [String], at moment: StoreMoment, make: (_ sequence: Int) -> Record
    ) async throws -> RecordCreation<Record>? {
        guard Record.storeBodyOmitsSequence, policy.settle == nil, claims.isEmpty, let idempotencyKey,
            PostgresTransaction.current == nil
        else { return nil }
        let record = make(0)
        guard record.storeGroup == nil, record.storeClaims.isEmpty, record.storeIdempotencyKey == idempotencyKey else { return nil }
        let statement = PostgresHotStatements.Create(
            store: name, idempotencyKey: idempotencyKey, key: record.storeKey, createdAt: moment.now.timeIntervalSinceReferenceDate,
            isOpen: record.storeIsOpen, settlesAt: settlesAt(record), body: try encodeWritten(record))
        let inserted = try await storage.read("create", store: name) { db -> Bool? in
            try await forgetAgedNowAndThen(db, at: moment)
            do {
                var created = false
                for try await _ in try await db.execute(statement, logger: logger) { created = true }
                return created
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                return nil  // another record holds its key: the unit replaces it, as it would
            }
        }
        if inserted == false, let retention = moment.retention {
            // The key is known: perhaps to a record past its age whose row waits for the next
            // second's forgetting. Forgotten now, in a statement of its own (its key goes at its
            // commit), the unit finds such a key free, as it would have been.
            try await storage.read("create", store: name) { db in try await forgetAged(db, now: moment.now, retention: retention) }
        }
        guard inserted == true else { return nil }
        return .created(record)
    }

    func record(_ lookup: RecordLookup, at moment: StoreMoment?) async throws -> Record? {
        guard let moment, needsUnit(moment) else {
            return try await storage.read("read", store: name) { db in try await records(db, self.lookup(lookup, locking: false)).first?.record }
        }
        // Nothing due: one statement forgets what is past its age and reads.
        let quick: Record?? = try await storage.read("read", store: name) { db in
            guard try await dueKeys(moment, db).isEmpty else { return nil }
            return .some(try await unlockedRecord(db, lookup, at: moment)?.record)
        }
        if let quick { return quick }
        var found: Record?
        var settled: [Record] = []
        try await storage.unit("read", store: name) { db in
            settled = []
            try await apply(moment, db, settled: &settled)
            found = try await records(db, self.lookup(lookup, locking: false)).first?.record
            return .commit
        }
        tell(settled)
        return found
    }

    func update<Value>(_ lookup: RecordLookup, at moment: StoreMoment?, _ change: (inout Record) -> Value) async throws
        -> RecordUpdate<Value, Record>
    {
        // Most changes asked for change nothing (a retrieve that finds nothing expired): when
        // nothing is due, the record is read without a lock or a transaction and, if the change
        // leaves it as it was, that is the answer. Otherwise it is changed under its row's lock.
        var quick: RecordUpdate<Value, Record>?
        let answered = try await storage.read("update", store: name) { db -> Bool in
            if let moment, !(try await dueKeys(moment, db).isEmpty) { return false }
            guard let found = try await unlockedRecord(db, lookup, at: moment) else {
                quick = .notFound
                return true
            }
            var unchanged = found.record
            let value = change(&unchanged)
            guard try isSame(unchanged, as: found.record) else { return false }
            quick = .changed(value)
            return true
        }
        if answered, let quick { return quick }

        var outcome: RecordUpdate<Value, Record> = .notFound
        var settled: [Record] = []
        try await storage.unit("update", store: name) { db in
            settled = []
            outcome = .notFound
            if let moment { try await apply(moment, db, settled: &settled) }
            guard let found = try await records(db, self.lookup(lookup, locking: true)).first else { return .commit }
            var changed = found.record
            let value = change(&changed)
            if let holder = try await write(db, key: found.key, before: found.record, after: changed) {
                outcome = .claimTaken(holder)
            } else {
                outcome = .changed(value)
            }
            return .commit
        }
        tell(settled)
        return outcome
    }

    func remove(_ key: String, if condition: (Record) -> Bool) async throws -> Record? {
        var removed: Record?
        try await storage.unit("remove", store: name) { db in
            removed = nil
            guard let found = try await records(db, lookup(.key(key), locking: true)).first, condition(found.record) else { return .commit }
            // Its idempotency key and claims go with it (the foreign keys cascade).
            try await db.query("DELETE FROM sandbox_records WHERE store = \(name) AND key = \(key)", logger: logger)
            removed = found.record
            return .commit
        }
        return removed
    }

    func records(at moment: StoreMoment?) async throws -> [Record] {
        let all: PostgresQuery = "SELECT key, body FROM sandbox_records WHERE store = \(name) ORDER BY sequence"
        guard let moment, needsUnit(moment) else {
            return try await storage.read("list", store: name) { db in try await records(db, all).map(\.record) }
        }
        let quick: [Record]? = try await storage.read("list", store: name) { db in
            guard try await retainIfNothingIsDue(moment, db) else { return nil }
            return try await records(db, all).map(\.record)
        }
        if let quick { return quick }
        var found: [Record] = []
        var settled: [Record] = []
        try await storage.unit("list", store: name) { db in
            settled = []
            try await apply(moment, db, settled: &settled)
            found = try await records(db, all).map(\.record)
            return .commit
        }
        tell(settled)
        return found
    }

    func first(at moment: StoreMoment?, where predicate: (Record) -> Bool) async throws -> Record? {
        try await records(at: moment).first(where: predicate)
    }

    func settle(at moment: StoreMoment) async throws {
        guard needsUnit(moment) else { return }
        if try await storage.read("settle", store: name, { db in try await retainIfNothingIsDue(moment, db) }) { return }
        var settled: [Record] = []
        try await storage.unit("settle", store: name) { db in
            settled = []
            try await apply(moment, db, settled: &settled)
            return .commit
        }
        tell(settled)
    }

    func count() async throws -> Int {
        try await storage.read("count", store: name) { db in
            var count = 0
            for try await value in try await db.query("SELECT count(*) FROM sandbox_records WHERE store = \(name)", logger: logger)
                .decode(Int.self)
            {
                count = value
            }
            return count
        }
    }

    func claimDue(now: Date, limit: Int, _ claim: (inout Record) -> Bool) async throws -> [Record] {
        guard limit > 0 else { return [] }
        var claimed: [Record] = []
        let moment = now.timeIntervalSinceReferenceDate
        // Most rounds find nothing due: one statement says so, without a transaction.
        let anyDue = try await storage.read("claim", store: name) { db in
            try await number(db, dueRows(select: "1", at: moment, then: " LIMIT 1")) != nil
        }
        guard anyDue else { return [] }
        try await storage.unit("claim", store: name) { db in
            claimed = []
            // Rows another worker holds are skipped, not waited for: each is claimed once.
            let due = try await records(
                db, dueRows(select: "key, body", at: moment, then: " ORDER BY settles_at NULLS FIRST LIMIT \(max(0, limit)) FOR UPDATE SKIP LOCKED"))
            for found in due {
                var record = found.record
                guard claim(&record) else { continue }
                if try await write(db, key: found.key, before: found.record, after: record) == nil { claimed.append(record) }
            }
            return .commit
        }
        return claimed
    }

    // MARK: - Time and retention

    /// Whether a moment asks for anything: settling open records, or forgetting old ones.
    private func needsUnit(_ moment: StoreMoment) -> Bool {
        policy.settle != nil || moment.retention != nil
    }

    /// Settles open records to the moment, then forgets what is past its retention's age (the
    /// count only grows by creating, so creates keep it).
    private func apply(_ moment: StoreMoment, _ db: PostgresConnection, settled: inout [Record]) async throws {
        try await settleDue(moment, db, settled: &settled)
        if let retention = moment.retention { try await forgetAged(db, now: moment.now, retention: retention) }
    }

    /// For a read: when no open record is due, applies the retention (outside a transaction: each
    /// statement stands alone) and returns true; otherwise does nothing and returns false (the
    /// caller then settles and reads in one unit of work).
    private func retainIfNothingIsDue(_ moment: StoreMoment, _ db: PostgresConnection) async throws -> Bool {
        guard try await dueKeys(moment, db).isEmpty else { return false }
        if let retention = moment.retention { try await forgetAged(db, now: moment.now, retention: retention) }
        return true
    }

    /// The open records time changes at the moment: read without locking them (those the policy's
    /// `settlesAt` says are not due yet are not read at all), and asked of the policy.
    private func dueKeys(_ moment: StoreMoment, _ db: PostgresConnection) async throws -> [String] {
        guard let settle = policy.settle else { return [] }
        var due: [String] = []
        let now = moment.now.timeIntervalSinceReferenceDate
        for found in try await records(db, dueRows(select: "key, body", at: now)) {
            var record = found.record
            if settle(&record, moment.now) { due.append(found.key) }
        }
        return due
    }

    /// Settles the open records that are due. Only their rows are locked (`FOR UPDATE`, in key
    /// order), and they are settled again from what they hold now: another instance settling the
    /// same record at the same time waits for the lock, then reads the settled row. The change is
    /// made once, and only the instance that made it reports it (`onSettled`, after its commit).
    private func settleDue(_ moment: StoreMoment, _ db: PostgresConnection, settled: inout [Record]) async throws {
        guard let settle = policy.settle else { return }
        let due = try await dueKeys(moment, db)
        guard !due.isEmpty else { return }
        let locked = try await records(
            db,
            """
            SELECT key, body FROM sandbox_records WHERE store = \(name) AND key = ANY(\(due)) AND is_open
            ORDER BY key FOR UPDATE
            """)
        for found in locked {
            var record = found.record
            guard settle(&record, moment.now) else { continue }
            if try await write(db, key: found.key, before: found.record, after: record) == nil { settled.append(record) }
        }
    }

    /// Forgets records `retention.age` seconds old or older, then (settled first, when the policy
    /// says so) the oldest beyond `keep`, in SQL.
    private func forget(_ db: PostgresConnection, now: Date, retention: Retention, keep: Int) async throws {
        try await forgetAged(db, now: now, retention: retention)
        try await trim(db, keep: keep)
    }

    /// Keeps the store's newest `keep` records (its open ones first when the policy says so).
    private func trim(_ db: PostgresConnection, keep: Int) async throws {
        // One trim of a store at a time: trims running together would all delete the same
        // oldest rows, each waiting for the other's locks. A create that finds one under way
        // leaves the room to it.
        let alone = try await number(db, "SELECT 1 WHERE pg_try_advisory_xact_lock(1, hashtext(\(name)))") != nil
        guard alone else { return }
        trimmed()
        guard policy.forgetsSettledFirst else {
            // Oldest first: everything up to the newest row beyond `keep`, found by walking the
            // creation-order index backwards, goes in one range of that index. Rows churn faster
            // than statistics follow (right after a reset the planner takes the store for a few
            // rows, sorts thousands and scans every row trimmed since the last vacuum, 7-70 ms
            // instead of under 1): this statement's plan keeps to the index, and the settings
            // are put back for the rest of the transaction.
            var before = ("on", "on", "on")
            for try await settings in try await db.query(
                """
                SELECT current_setting('enable_sort'), current_setting('enable_bitmapscan'), current_setting('enable_seqscan'),
                    set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true),
                    set_config('enable_seqscan', 'off', true)
                """, logger: logger
            ).decode((String, String, String, String, String, String).self) {
                before = (settings.0, settings.1, settings.2)
            }
            try await db.query(
                """
                DELETE FROM sandbox_records WHERE store = \(name) AND sequence <= (
                    SELECT sequence FROM sandbox_records WHERE store = \(name) ORDER BY sequence DESC OFFSET \(max(0, keep)) LIMIT 1)
                """, logger: logger)
            try await db.query(
                """
                SELECT set_config('enable_sort', \(before.0), true), set_config('enable_bitmapscan', \(before.1), true),
                    set_config('enable_seqscan', \(before.2), true)
                """, logger: logger)
            return
        }
        try await db.query(
            """
            DELETE FROM sandbox_records WHERE store = \(name) AND key IN (
                SELECT key FROM sandbox_records WHERE store = \(name) ORDER BY is_open DESC, sequence DESC OFFSET \(max(0, keep)))
            """, logger: logger)
    }

    /// Forgets records `retention.age` seconds old or older (one look into the age index when none is).
    private func forgetAged(_ db: PostgresConnection, now: Date, retention: Retention) async throws {
        let oldestKept = now.timeIntervalSinceReferenceDate - retention.age
        try await db.query("DELETE FROM sandbox_records WHERE store = \(name) AND created_at <= \(oldestKept)", logger: logger)
    }

    /// Whether this create makes room by count. Counting walks the store's newest `capacity`
    /// rows (milliseconds for thousands: rows this fresh are read from the table, not the index
    /// alone), so a store holding many does it once in `capacity / 16` creates (each instance
    /// counting its own): such a store may hold that many more than its capacity for a moment;
    /// one bounded to fewer than 32 is trimmed on every create (exactly to its bound, unless
    /// another create is trimming it at that moment: the next one then does). A trim left to
    /// another instance's is tried again a sixteenth of the way on.
    private func trimsByCount(_ retention: Retention) -> Bool {
        let every = max(1, retention.capacity / 16)
        return createsSinceTrim.withLock { count in
            count += 1
            guard count >= every else { return false }
            // Unless this trim is made (`trimmed`), the next try comes a sixteenth of the way
            // on: one left to another instance's trim under way still counts, since that trim
            // kept the bound as of its start only.
            count = every - max(1, every / 16)
            return true
        }
    }

    /// A trim is being made: the count starts again.
    private func trimmed() {
        createsSinceTrim.withLock { $0 = 0 }
    }

    /// Hands settled records to the policy's listener, after their unit committed.
    /// Reports what settling changed, once it is kept (after the operation's commit, inside one).
    private func tell(_ settled: [Record]) {
        if !settled.isEmpty, let onSettled = policy.onSettled { SandboxCommit.afterwards { onSettled(settled) } }
    }

    // MARK: - Rows

    /// The query that finds one record by key, idempotency key or claim (locking its row when
    /// asked). With `keptAfter`, it finds none of the records created then or earlier.
    private func lookup(_ lookup: RecordLookup, locking: Bool, keptAfter oldestKept: Double? = nil) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(name)
        var sql = "SELECT r.key, r.body FROM "
        switch lookup {
        case .key(let key):
            bindings.append(key)
            sql += "sandbox_records r WHERE r.store = $1 AND r.key = $2"
        case .idempotencyKey(let idempotencyKey):
            bindings.append(idempotencyKey)
            sql += """
                sandbox_idempotency_keys i JOIN sandbox_records r ON r.store = i.store AND r.key = i.record_key
                WHERE i.store = $1 AND i.idempotency_key = $2
                """
        case .claim(let claim):
            bindings.append(claim)
            sql += """
                sandbox_claims c JOIN sandbox_records r ON r.store = c.store AND r.key = c.record_key
                WHERE c.store = $1 AND c.claim = $2
                """
        }
        if let oldestKept {
            bindings.append(oldestKept)
            sql += " AND r.created_at > $3"
        }
        if locking { sql += " FOR UPDATE OF r" }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// One record, read without a lock and never one past the moment's age (by key through the
    /// prepared statement).
    private func unlockedRecord(_ db: PostgresConnection, _ lookup: RecordLookup, at moment: StoreMoment?) async throws
        -> (key: String, record: Record)?
    {
        if let moment { try await forgetAgedNowAndThen(db, at: moment) }
        let oldestKept = moment.flatMap(oldestKept)
        guard case .key(let key) = lookup else {
            return try await records(db, self.lookup(lookup, locking: false, keptAfter: oldestKept)).first
        }
        let statement = PostgresHotStatements.RecordByKey(store: name, key: key, oldestKept: oldestKept ?? -.infinity)
        for try await (found, body) in try await db.execute(statement, logger: logger) {
            return (found, try decode(body, key: found))
        }
        return nil
    }

    /// Deletes the records past the moment's age, at most once a second of the moments' time
    /// per instance and store, in a statement of its own (the keys they held go at its commit).
    /// Reads never find them either way, so they linger unseen for at most that second, and the
    /// hot statements stay the prepared ones without a delete: a delete by age planned while the
    /// table was empty and cached with them scanned the whole table on every request.
    private func forgetAgedNowAndThen(_ db: PostgresConnection, at moment: StoreMoment) async throws {
        guard let retention = moment.retention else { return }
        let now = moment.now.timeIntervalSinceReferenceDate
        let due = agedForgottenAt.withLock { last in
            guard now - last >= 1 || now < last else { return false }
            last = now
            return true
        }
        if due { try await forgetAged(db, now: moment.now, retention: retention) }
    }

    /// The store's rows time may change at `moment`: open, and due by the policy's time or
    /// without one. `columns` and `suffix` are SQL of this file's own, never from outside.
    private func dueRows(select columns: String, at moment: Double, then suffix: String = "") -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(name)
        bindings.append(moment)
        return PostgresQuery(
            unsafeSQL: "SELECT \(columns) FROM sandbox_records WHERE store = $1 AND is_open AND (settles_at IS NULL OR settles_at <= $2)"
                + suffix,
            binds: bindings)
    }

    /// Records created at this time or earlier are past the moment's retention.
    private func oldestKept(_ moment: StoreMoment) -> Double? {
        moment.retention.map { moment.now.timeIntervalSinceReferenceDate - $0.age }
    }

    /// The records a query of (key, body) finds, decoded.
    private func records(_ db: PostgresConnection, _ query: PostgresQuery) async throws -> [(key: String, record: Record)] {
        var found: [(key: String, record: Record)] = []
        for try await (key, body) in try await db.query(query, logger: logger).decode((String, String).self) {
            found.append((key, try decode(body, key: key)))
        }
        return found
    }

    /// A record other than `key` holding one of `claims`, if any.
    private func holder(_ db: PostgresConnection, of claims: [String], otherThan key: String?) async throws -> Record? {
        try await records(
            db,
            """
            SELECT r.key, r.body FROM sandbox_claims c
            JOIN sandbox_records r ON r.store = c.store AND r.key = c.record_key
            WHERE c.store = \(name) AND c.claim = ANY(\(claims)) AND c.record_key IS DISTINCT FROM \(key)
            ORDER BY c.claim LIMIT 1
            """
        ).first?.record
    }

    /// Takes `claims` for the record under `key`. When another record holds one, takes none and
    /// returns that record. The primary key decides a race: a claim being taken by another
    /// transaction is waited for, then seen as held.
    private func take(_ db: PostgresConnection, claims: Set<String>, for key: String) async throws -> Record? {
        guard !claims.isEmpty else { return nil }
        let wanted = claims.sorted()
        var taken: [String] = []
        for try await claim in try await db.query(
            """
            INSERT INTO sandbox_claims (store, claim, record_key) SELECT \(name), claim, \(key) FROM unnest(\(wanted)::text[]) AS claim
            ON CONFLICT DO NOTHING RETURNING claim
            """, logger: logger
        ).decode(String.self) {
            taken.append(claim)
        }
        let missing = wanted.filter { !taken.contains($0) }
        guard !missing.isEmpty else { return nil }
        guard let holder = try await holder(db, of: missing, otherThan: key) else {
            // Refused because this record holds them already: taken. Otherwise their holder let go
            // since the refusal: the unit is tried again rather than leave them held by no row.
            var ownHeld = 0
            for try await count in try await db.query(
                "SELECT count(*) FROM sandbox_claims WHERE store = \(name) AND record_key = \(key) AND claim = ANY(\(missing))", logger: logger
            ).decode(Int.self) {
                ownHeld = count
            }
            if ownHeld == missing.count { return nil }
            throw PostgresLostRace()
        }
        if !taken.isEmpty {
            try await db.query(
                "DELETE FROM sandbox_claims WHERE store = \(name) AND record_key = \(key) AND claim = ANY(\(taken))", logger: logger)
        }
        return holder
    }

    /// Writes a changed record over its row, moving its claims. When the change would take a
    /// claim another record holds, writes nothing and returns that record.
    private func write(_ db: PostgresConnection, key: String, before: Record, after: Record) async throws -> Record? {
        let claimsBefore = Set(before.storeClaims)
        let claimsAfter = Set(after.storeClaims)
        if claimsAfter != claimsBefore {
            if let holder = try await take(db, claims: claimsAfter.subtracting(claimsBefore), for: key) { return holder }
            let dropped = claimsBefore.subtracting(claimsAfter).sorted()
            if !dropped.isEmpty {
                try await db.query(
                    "DELETE FROM sandbox_claims WHERE store = \(name) AND record_key = \(key) AND claim = ANY(\(dropped))", logger: logger)
            }
        }
        try await db.query(
            """
            UPDATE sandbox_records SET body = \(try encodeWritten(after)), is_open = \(after.storeIsOpen),
                settles_at = \(settlesAt(after)), record_group = \(after.storeGroup)
            WHERE store = \(name) AND key = \(key)
            """, logger: logger)
        return nil
    }

    /// Keeps a new record; one kept under its key before is replaced (its keys and claims go with
    /// it). In the same statement: records created at `forgettingFrom` or earlier are forgotten,
    /// and the idempotency key `naming` (reserved by this unit) is pointed at the new record.
    private func insert(
        _ db: PostgresConnection, _ record: Record, sequence: Int, createdAt: Date, forgettingFrom oldestKept: Double?, naming: String?
    ) async throws {
        let key = record.storeKey
        let body = try encodeWritten(record)
        let created = createdAt.timeIntervalSinceReferenceDate
        func row(_ suffix: String) -> PostgresQuery {
            """
            INSERT INTO sandbox_records (store, key, sequence, created_at, is_open, settles_at, record_group, body)
            VALUES (\(name), \(key), \(sequence), \(created), \(record.storeIsOpen), \(settlesAt(record)), \(record.storeGroup),
                \(body))\(unescaped: suffix)
            """
        }
        // Both side statements change other rows than the insert's (the foreign key to the new
        // record is checked at commit), so one statement holds all three; without a moment or a
        // key to name they match no row (no record is created at -∞; no key equals NULL).
        let first: PostgresQuery = """
            WITH aged AS (DELETE FROM sandbox_records WHERE store = \(name) AND created_at <= \(oldestKept ?? -.infinity)),
                named AS (UPDATE sandbox_idempotency_keys SET record_key = \(key) WHERE store = \(name) AND idempotency_key = \(naming))
            INSERT INTO sandbox_records (store, key, sequence, created_at, is_open, settles_at, record_group, body)
            VALUES (\(name), \(key), \(sequence), \(created), \(record.storeIsOpen), \(settlesAt(record)), \(record.storeGroup),
                \(body))
            ON CONFLICT (store, key) DO NOTHING RETURNING 1
            """
        if try await db.query(first, logger: logger).collect().isEmpty {
            try await db.query("DELETE FROM sandbox_records WHERE store = \(name) AND key = \(key)", logger: logger)
            try await db.query(row(""), logger: logger)
            // The replaced record's keys went with it, the reservation too.
            if let naming {
                try await db.query(
                    """
                    INSERT INTO sandbox_idempotency_keys (store, idempotency_key, record_key) VALUES (\(name), \(naming), \(key))
                    ON CONFLICT (store, idempotency_key) DO UPDATE SET record_key = EXCLUDED.record_key
                    """, logger: logger)
            }
        }
    }

    /// The one number a query returns, if it returns a row.
    private func number(_ db: PostgresConnection, _ query: PostgresQuery) async throws -> Int? {
        var found: Int?
        for try await value in try await db.query(query, logger: logger).decode(Int.self) { found = value }
        return found
    }

    /// When time can first change an open record, as the policy says (nil: at any time, or closed).
    private func settlesAt(_ record: Record) -> Double? {
        guard record.storeIsOpen else { return nil }
        return policy.settlesAt?(record)?.timeIntervalSinceReferenceDate
    }

    /// Whether a change left a record as it was: by value when its type can say, else by its JSON.
    private func isSame(_ changed: Record, as original: Record) throws -> Bool {
        func equal<Value: Equatable>(_ value: Value, _ other: Any) -> Bool { (other as? Value) == value }
        if let comparable = changed as? any Equatable { return equal(comparable, original) }
        return try encode(changed) == encode(original)
    }

    private func encode(_ record: Record) throws -> String {
        try record.storedJSON ?? String(decoding: StoredRecordCoding.encoder().encode(record), as: UTF8.self)
    }

    /// `encode`, for a record being written: remembered, so reading it back decodes nothing.
    private func encodeWritten(_ record: Record) throws -> String {
        let body = try encode(record)
        decoded.keep(record, as: body)
        return body
    }

    private func decode(_ body: String, key: String) throws -> Record {
        if let known = decoded.record(for: body) { return known }
        do {
            let record = try StoredRecordCoding.decoder().decode(Record.self, from: Data(body.utf8))
            decoded.keep(record, as: body)
            return record
        } catch {
            throw PostgresStoreError.undecodable(store: name, key: key, reason: String(describing: error))
        }
    }
}
