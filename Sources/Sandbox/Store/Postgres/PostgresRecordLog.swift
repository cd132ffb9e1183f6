import Foundation
import Logging
import PostgresNIO

extension PostgresStorage {
    /// A log in the database's record tables (rows whose `store` is `name`): each batch appended
    /// in one transaction, pages read by creation number along the store's order index.
    func log<Record: LoggedRecord>(_ name: String, of type: Record.Type) -> any SandboxRecordLog<Record> {
        PostgresRecordLog<Record>(name: name, storage: self)
    }
}

/// A `SandboxRecordLog` in PostgreSQL, shared by every instance on the database. A batch takes
/// its creation numbers from the store's sequence row, which it holds until it commits, so the
/// numbers become visible in order: a reader that has seen number N never later finds a smaller
/// one appear (a follower's cursor misses nothing).
struct PostgresRecordLog<Record: LoggedRecord>: SandboxRecordLog {
    let name: String
    let storage: PostgresStorage

    private var logger: Logger { storage.logger }

    func append(_ records: [Record], at moment: StoreMoment) async throws {
        guard !records.isEmpty else { return }
        let count = records.count
        let now = moment.now.timeIntervalSinceReferenceDate
        let encoder = StoredRecordCoding.encoder()
        try await storage.unit("append", store: name) { db in
            var first = 0
            for try await value in try await db.query(
                """
                INSERT INTO sandbox_sequences (store, next) VALUES (\(name), \(count))
                ON CONFLICT (store) DO UPDATE SET next = sandbox_sequences.next + \(count) RETURNING next - \(count)
                """, logger: logger
            ).decode(Int.self) {
                first = value
            }
            if let retention = moment.retention {
                let oldestKept = now - retention.age
                // Creation numbers have no gaps (a batch takes them in its own transaction), so the
                // newest `capacity` are those from `first + count - capacity` on.
                let keepFrom = first + count - max(0, retention.capacity)
                try await db.query(
                    """
                    DELETE FROM sandbox_records WHERE store = \(name) AND (sequence < \(keepFrom) OR created_at <= \(oldestKept))
                    """, logger: logger)
            }
            var keys: [String] = []
            var sequences: [Int] = []
            var bodies: [String] = []
            keys.reserveCapacity(count)
            sequences.reserveCapacity(count)
            bodies.reserveCapacity(count)
            for (offset, record) in records.enumerated() {
                var numbered = record
                numbered.sequence = first + offset
                keys.append(numbered.storeKey)
                sequences.append(numbered.sequence)
                bodies.append(String(decoding: try encoder.encode(numbered), as: UTF8.self))
            }
            try await db.query(
                """
                INSERT INTO sandbox_records (store, key, sequence, created_at, is_open, settles_at, record_group, body)
                SELECT \(name), key, sequence, \(now), false, NULL, NULL, body
                FROM unnest(\(keys)::text[], \(sequences)::bigint[], \(bodies)::text[]) AS batch(key, sequence, body)
                """, logger: logger)
            return .commit
        }
    }

    func newest(at moment: StoreMoment) async throws -> Int? {
        try await storage.read("newest", store: name) { db in
            var newest: Int?
            for try await value in try await db.query("SELECT max(sequence) FROM sandbox_records WHERE store = \(name)", logger: logger)
                .decode(Int?.self)
            {
                newest = value
            }
            return newest
        }
    }

    func page(after: Int, limit: Int, at moment: StoreMoment) async throws -> [Record] {
        let decoder = StoredRecordCoding.decoder()
        return try await storage.read("page", store: name) { db in
            if let retention = moment.retention {
                let oldestKept = moment.now.timeIntervalSinceReferenceDate - retention.age
                try await db.query("DELETE FROM sandbox_records WHERE store = \(name) AND created_at <= \(oldestKept)", logger: logger)
            }
            var found: [Record] = []
            for try await (key, body) in try await db.query(
                """
                SELECT key, body FROM sandbox_records WHERE store = \(name) AND sequence > \(after)
                ORDER BY sequence LIMIT \(max(0, limit))
                """, logger: logger
            ).decode((String, String).self) {
                do { found.append(try decoder.decode(Record.self, from: Data(body.utf8))) } catch {
                    throw PostgresStoreError.undecodable(store: name, key: key, reason: String(describing: error))
                }
            }
            return found
        }
    }
}
