import Foundation

/// The in-memory store's state: records by key and every index over them, changed only as a
/// whole by one operation at a time (the store's lock is around it).
struct RecordTable<Record: StoredRecord>: Sendable {
    private struct Kept: Sendable {
        var record: Record
        let sequence: Int
    }

    private var kept: [String: Kept] = [:]
    private var age = RetentionQueue()
    /// Idempotency key → the key of the record it made.
    private var idempotencyIndex: [String: String] = [:]
    /// Claim → the key of the record holding it.
    private var claimHolders: [String: String] = [:]
    /// Group → its records' keys, oldest first.
    private var groups: [String: [String]] = [:]
    /// The records time can still change.
    private var open: Set<String> = []
    private var nextSequence = 0

    var count: Int { kept.count }

    /// Settles open records to the moment, then forgets what its retention no longer keeps.
    mutating func apply(_ moment: StoreMoment, policy: StorePolicy<Record>, settled: inout [Record]) {
        if let settle = policy.settle, !open.isEmpty {
            for key in open {
                switch update(.key(key), { settle(&$0, moment.now) ? $0 : nil }) {
                case .changed(let changed?): settled.append(changed)
                case .changed(nil), .claimTaken: break
                case .notFound: open.remove(key)
                }
            }
        }
        if let retention = moment.retention {
            forget(now: moment.now, age: retention.age, capacity: retention.capacity, settledFirst: policy.forgetsSettledFirst)
        }
    }

    mutating func create(
        idempotencyKey: String?, requiring claims: [String], at moment: StoreMoment, policy: StorePolicy<Record>,
        sameRequest: (Record) -> Bool, alongside: (inout Record, Record) -> Void, make: (Int) -> Record
    ) -> RecordCreation<Record> {
        if let idempotencyKey, let key = idempotencyIndex[idempotencyKey], let existing = kept[key] {
            return sameRequest(existing.record) ? .replayed(existing.record) : .keyReused(existing.record)
        }
        for claim in claims {
            if let holder = claimHolders[claim], let existing = kept[holder] { return .claimTaken(existing.record) }
        }
        if let retention = moment.retention {
            // Room for the new one: the oldest go first.
            forget(now: moment.now, age: retention.age, capacity: retention.capacity - 1, settledFirst: policy.forgetsSettledFirst)
        }
        let record = make(nextSequence)
        if let group = record.storeGroup, let members = groups[group] {
            for member in members { _ = update(.key(member)) { alongside(&$0, record) } }
        }
        insert(record, sequence: nextSequence, createdAt: moment.now)
        nextSequence += 1
        return .created(record)
    }

    /// Up to `limit` open records `claim` takes (changing them), in no particular order.
    mutating func claimDue(limit: Int, _ claim: (inout Record) -> Bool) -> [Record] {
        var claimed: [Record] = []
        for key in open where claimed.count < limit {
            let taken = update(.key(key)) { kept -> Record? in
                var copy = kept
                guard claim(&copy) else { return nil }
                kept = copy
                return copy
            }
            if case .changed(let record?) = taken { claimed.append(record) }
        }
        return claimed
    }

    func record(_ lookup: RecordLookup) -> Record? {
        key(for: lookup).flatMap { kept[$0]?.record }
    }

    mutating func update<Value>(_ lookup: RecordLookup, _ change: (inout Record) -> Value) -> RecordUpdate<Value, Record> {
        guard let key = key(for: lookup), let index = kept.index(forKey: key) else { return .notFound }
        var record = kept.values[index].record
        let claimsBefore = record.storeClaims
        let value = change(&record)
        let claimsAfter = record.storeClaims
        if claimsAfter != claimsBefore {
            for claim in claimsAfter {
                if let holder = claimHolders[claim], holder != key, let other = kept[holder] { return .claimTaken(other.record) }
            }
            for claim in claimsBefore where claimHolders[claim] == key { claimHolders.removeValue(forKey: claim) }
            for claim in claimsAfter { claimHolders[claim] = key }
        }
        if record.storeIsOpen { open.insert(key) } else if !open.isEmpty { open.remove(key) }
        kept.values[index].record = record
        return .changed(value)
    }

    mutating func remove(_ key: String, if condition: (Record) -> Bool) -> Record? {
        guard let record = kept[key]?.record, condition(record) else { return nil }
        return remove(key)
    }

    /// Every record, oldest first.
    var records: [Record] {
        age.inOrder.compactMap { entry in kept[entry.key].flatMap { $0.sequence == entry.sequence ? $0.record : nil } }
    }

    func first(where predicate: (Record) -> Bool) -> Record? {
        kept.values.first { predicate($0.record) }?.record
    }

    private func key(for lookup: RecordLookup) -> String? {
        switch lookup {
        case .key(let key): key
        case .idempotencyKey(let idempotencyKey): idempotencyIndex[idempotencyKey]
        case .claim(let claim): claimHolders[claim]
        }
    }

    private func isCurrent(_ entry: RetentionQueue.Entry) -> Bool { kept[entry.key]?.sequence == entry.sequence }

    private mutating func insert(_ record: Record, sequence: Int, createdAt: Date) {
        let key = record.storeKey
        if let replaced = kept.updateValue(Kept(record: record, sequence: sequence), forKey: key) { unindex(replaced.record, key: key) }
        age.append(.init(key: key, sequence: sequence, createdAt: createdAt))
        if let idempotencyKey = record.storeIdempotencyKey { idempotencyIndex[idempotencyKey] = key }
        for claim in record.storeClaims { claimHolders[claim] = key }
        if let group = record.storeGroup { groups[group, default: []].append(key) }
        if record.storeIsOpen { open.insert(key) }
    }

    /// Forgets records `age` seconds old or older, then (settled first, when asked) the oldest
    /// beyond `capacity`.
    private mutating func forget(now: Date, age maximumAge: TimeInterval, capacity: Int, settledFirst: Bool) {
        while let oldest = age.oldest {
            if isCurrent(oldest) {
                guard now.timeIntervalSince(oldest.createdAt) >= maximumAge else { break }
                remove(oldest.key)
            }
            age.dropOldest()
        }
        while kept.count > max(0, capacity) {
            if settledFirst,
                let victim = age.inOrder.first(where: { isCurrent($0) && kept[$0.key]?.record.storeIsOpen == false })
            {
                remove(victim.key)
                continue
            }
            guard let oldest = age.oldest else { break }
            if isCurrent(oldest) { remove(oldest.key) }
            age.dropOldest()
        }
    }

    @discardableResult
    private mutating func remove(_ key: String) -> Record? {
        guard let gone = kept.removeValue(forKey: key)?.record else { return nil }
        unindex(gone, key: key)
        return gone
    }

    /// Drops the index entries that point at `key` on `record`'s behalf.
    private mutating func unindex(_ record: Record, key: String) {
        if let idempotencyKey = record.storeIdempotencyKey, idempotencyIndex[idempotencyKey] == key {
            idempotencyIndex.removeValue(forKey: idempotencyKey)
        }
        for claim in record.storeClaims where claimHolders[claim] == key { claimHolders.removeValue(forKey: claim) }
        if let group = record.storeGroup {
            groups[group]?.removeAll { $0 == key }
            if groups[group]?.isEmpty == true { groups.removeValue(forKey: group) }
        }
        if !open.isEmpty { open.remove(key) }
    }
}
