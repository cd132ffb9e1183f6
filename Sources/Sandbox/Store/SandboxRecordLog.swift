import DequeModule
import Foundation
import Synchronization

/// A record kept in a log (`SandboxRecordLog`): numbered by its store when appended.
protocol LoggedRecord: StoredRecord, Codable {
    /// The store's creation number for it (from 0, in the order appended; shared by every
    /// instance on a database).
    var sequence: Int { get set }

    /// The record as a log holding it in memory keeps it: the same record, perhaps in less memory.
    func keptInMemory() -> Self
}

extension LoggedRecord {
    /// Unique in its store: its number.
    var storeKey: String { String(sequence) }

    func keptInMemory() -> Self { self }
}

/// An append-only log in a sandbox's storage (the request journal): records appended in batches,
/// each numbered by the store, read back in that order a page at a time. Bounded by the retention
/// of the moment given (age and count), like every other store.
protocol SandboxRecordLog<Record>: Sendable {
    associatedtype Record: LoggedRecord

    /// Keeps `records` in their order, each renumbered by the store (their `sequence` is replaced),
    /// forgetting what the moment's retention no longer keeps.
    func append(_ records: [Record], at moment: StoreMoment) async throws

    /// At most `limit` records numbered after `after`, oldest first (what the moment's retention
    /// no longer keeps is forgotten first).
    func page(after: Int, limit: Int, at moment: StoreMoment) async throws -> [Record]

    /// The newest record's number, nil when the log is empty.
    func newest(at moment: StoreMoment) async throws -> Int?
}

extension SandboxStorage {
    /// The log called `name`, kept as a store of the same name (what the in-memory storage does).
    func log<Record: LoggedRecord>(_ name: String, of type: Record.Type) -> any SandboxRecordLog<Record> {
        RecordStoreLog(store: store(name, of: Record.self, policy: StorePolicy()))
    }
}

/// A log kept in any record store: each record appended as a create (one unit of work each),
/// pages read from every record. What the in-memory storage uses: no I/O, so the per-record
/// units cost a lock each.
struct RecordStoreLog<Record: LoggedRecord>: SandboxRecordLog {
    let store: any SandboxRecordStore<Record>

    func append(_ records: [Record], at moment: StoreMoment) async throws {
        for record in records {
            _ = try await store.create(
                idempotencyKey: nil, requiring: [], at: moment, sameRequest: { _ in false }, alongside: { _, _ in },
                make: { sequence in
                    var numbered = record
                    numbered.sequence = sequence
                    return numbered
                })
        }
    }

    func page(after: Int, limit: Int, at moment: StoreMoment) async throws -> [Record] {
        Array(try await store.records(at: moment).lazy.filter { $0.sequence > after }.prefix(max(0, limit)))
    }

    func newest(at moment: StoreMoment) async throws -> Int? {
        try await store.records(at: moment).last?.sequence
    }
}

/// The in-memory log: records in order behind one lock, each batch one hold of it; the oldest are
/// dropped from the front (by count and age) one by one as new ones come, so no append pays for
/// thousands at once (dropped in one go when half the array was stale, they cost a sandbox under
/// load milliseconds of a core, and its slowest answers waited for it).
final class MemoryRecordLog<Record: LoggedRecord>: SandboxRecordLog, Sendable {
    private struct Kept: Sendable {
        let record: Record
        let createdAt: Date
    }

    private struct Table: Sendable {
        /// Oldest first, numbered one up from the front.
        var kept: Deque<Kept> = []
        var next = 0

        /// Drops what the moment's retention no longer keeps (with `room` for as many more).
        mutating func forget(_ moment: StoreMoment, room: Int = 0) {
            guard let retention = moment.retention else { return }
            let oldestKept = moment.now.addingTimeInterval(-retention.age)
            while let oldest = kept.first, kept.count > max(0, retention.capacity - room) || oldest.createdAt <= oldestKept {
                kept.removeFirst()
            }
        }
    }

    private let table = Mutex(Table())

    func append(_ records: [Record], at moment: StoreMoment) {
        let kept = records.map { $0.keptInMemory() }
        table.withLock { table in
            table.forget(moment, room: kept.count)
            for record in kept {
                var numbered = record
                numbered.sequence = table.next
                table.next += 1
                table.kept.append(Kept(record: numbered, createdAt: moment.now))
            }
            table.forget(moment)
        }
    }

    func page(after: Int, limit: Int, at moment: StoreMoment) -> [Record] {
        table.withLock { table in
            table.forget(moment)
            // Numbers rise by one from the front: the first after `after` is found by its offset.
            guard let first = table.kept.first?.record.sequence, limit > 0 else { return [] }
            let start = max(0, after + 1 - first)
            guard start < table.kept.count else { return [] }
            return table.kept[start..<min(table.kept.count, start + limit)].map(\.record)
        }
    }

    func newest(at moment: StoreMoment) -> Int? {
        table.withLock { table in
            table.forget(moment)
            return table.kept.last?.record.sequence
        }
    }
}
