import Foundation
import Synchronization

/// The sandbox's own store: a `RecordTable` behind one lock, each operation one hold of it.
/// Settling's news (`StorePolicy.onSettled`) goes out after the lock is released.
final class MemoryRecordStore<Record: StoredRecord>: SandboxRecordStore, Sendable {
    private let table = Mutex(RecordTable<Record>())
    private let policy: StorePolicy<Record>

    init(policy: StorePolicy<Record> = StorePolicy()) {
        self.policy = policy
    }

    /// One unit of work: time applied first when a moment is given.
    private func unit<Value>(_ moment: StoreMoment?, _ work: (inout RecordTable<Record>) -> Value) -> Value {
        guard let moment else { return table.withLock { work(&$0) } }
        var settled: [Record] = []
        let value = table.withLock { table in
            table.apply(moment, policy: policy, settled: &settled)
            return work(&table)
        }
        if !settled.isEmpty, let onSettled = policy.onSettled { onSettled(settled) }
        return value
    }

    func create(
        idempotencyKey: String? = nil, requiring claims: [String] = [], at moment: StoreMoment,
        sameRequest: (Record) -> Bool = { _ in false }, alongside: (_ member: inout Record, _ new: Record) -> Void = { _, _ in },
        make: (_ sequence: Int) -> Record
    ) -> RecordCreation<Record> {
        unit(moment) { table in
            table.create(
                idempotencyKey: idempotencyKey, requiring: claims, at: moment, policy: policy, sameRequest: sameRequest,
                alongside: alongside, make: make)
        }
    }

    func record(_ lookup: RecordLookup, at moment: StoreMoment? = nil) -> Record? {
        unit(moment) { $0.record(lookup) }
    }

    func update<Value>(_ lookup: RecordLookup, at moment: StoreMoment? = nil, _ change: (inout Record) -> Value)
        -> RecordUpdate<Value, Record>
    {
        unit(moment) { $0.update(lookup, change) }
    }

    func remove(_ key: String, if condition: (Record) -> Bool = { _ in true }) -> Record? {
        unit(nil) { $0.remove(key, if: condition) }
    }

    func records(at moment: StoreMoment? = nil) -> [Record] {
        unit(moment) { $0.records }
    }

    func first(at moment: StoreMoment? = nil, where predicate: (Record) -> Bool) -> Record? {
        unit(moment) { $0.first(where: predicate) }
    }

    /// Applies time and retention alone (a read that is about to follow wants them applied).
    func settle(at moment: StoreMoment) {
        unit(moment) { _ in }
    }

    func count() -> Int { unit(nil) { $0.count } }

    func claimDue(now: Date, limit: Int, _ claim: (inout Record) -> Bool) -> [Record] {
        claiming(limit: limit, claim)
    }

    /// `claimDue`, named apart from the protocol's asynchronous default.
    func claiming(limit: Int, _ claim: (inout Record) -> Bool) -> [Record] {
        unit(nil) { $0.claimDue(limit: limit, claim) }
    }
}
