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

    /// One statement, no transaction: the store's sequence row is held only while it runs (two
    /// instances' batches wait on each other for one statement, not for round trips), and the
    /// numbers, the trim and the rows are kept together. The numbers live in the `sequence`
    /// column (and the key); a row's body is encoded before it has one, and `page` puts it back.
    func append(_ records: [Record], at moment: StoreMoment) async throws {
        guard !records.isEmpty else { return }
        let count = records.count
        let now = moment.now.timeIntervalSinceReferenceDate
        // Records that write themselves (journal entries) need no encoder: made only for others.
        lazy var encoder = StoredRecordCoding.encoder()
        var bodies: [String] = []
        bodies.reserveCapacity(count)
        for record in records {
            var unnumbered = record
            unnumbered.sequence = 0
            bodies.append(try unnumbered.storedJSON ?? String(decoding: encoder.encode(unnumbered), as: UTF8.self))
        }
        var query: PostgresQuery
        if let retention = moment.retention {
            // Creation numbers have no gaps (a batch takes them under the row's lock), so the
            // newest `capacity` are those from `first + count - capacity` on. The delete walks only
            // the numbers since the last cut (`trimmed_before`), not every row trimmed since the
            // last vacuum; and it cuts no higher than the numbers its snapshot can see (`prior`:
            // a batch committed after it began is invisible to it), so that every row below the
            // stored cut is gone.
            query = """
                WITH prior AS (SELECT next, trimmed_before FROM sandbox_sequences WHERE store = \(name)),
                numbered AS (
                    INSERT INTO sandbox_sequences (store, next, trimmed_before) VALUES ($1, \(count), 0)
                    ON CONFLICT (store) DO UPDATE SET next = sandbox_sequences.next + $2, trimmed_before = greatest(
                        sandbox_sequences.trimmed_before,
                        least(sandbox_sequences.next + $2 - \(max(0, retention.capacity)), coalesce((SELECT next FROM prior), 0)))
                    RETURNING next - $2 AS first, least(next - $3, coalesce((SELECT next FROM prior), 0)) AS cut),
                trimmed AS (
                    DELETE FROM sandbox_records WHERE store = $1
                    AND ((sequence >= coalesce((SELECT trimmed_before FROM prior), 0) AND sequence < (SELECT cut FROM numbered))
                        OR created_at <= \(now - retention.age)))
                """
        } else {
            query = """
                WITH numbered AS (
                    INSERT INTO sandbox_sequences (store, next) VALUES (\(name), \(count))
                    ON CONFLICT (store) DO UPDATE SET next = sandbox_sequences.next + $2 RETURNING next - $2 AS first)
                """
        }
        query.sql += """

            INSERT INTO sandbox_records (store, key, sequence, created_at, is_open, settles_at, record_group, body)
            SELECT $1, (numbered.first + batch.ordinality - 1)::text, numbered.first + batch.ordinality - 1, $\(query.binds.count + 1),
                false, NULL, NULL, batch.body
            FROM numbered, unnest($\(query.binds.count + 2)::text[]) WITH ORDINALITY AS batch(body, ordinality)
            """
        query.binds.append(now)
        query.binds.append(bodies)
        try await storage.read("append", store: name) { db in _ = try await db.query(query, logger: logger) }
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
            var query: PostgresQuery = "SELECT sequence, body FROM sandbox_records WHERE store = \(name) AND sequence > \(after)"
            if let retention = moment.retention {
                let oldestKept = moment.now.timeIntervalSinceReferenceDate - retention.age
                try await db.query("DELETE FROM sandbox_records WHERE store = \(name) AND created_at <= \(oldestKept)", logger: logger)
                // A batch that raced another left the other's numbers to the next batch's trim
                // (see `append`): the read holds the count bound itself, so a page never shows more.
                let capacity = max(0, retention.capacity)
                query.sql += " AND sequence >= coalesce((SELECT next FROM sandbox_sequences WHERE store = $1) - $\(query.binds.count + 1), 0)"
                query.binds.append(capacity)
            }
            query.sql += " ORDER BY sequence LIMIT $\(query.binds.count + 1)"
            query.binds.append(max(0, limit))
            var found: [Record] = []
            for try await (sequence, body) in try await db.query(query, logger: logger).decode((Int, String).self) {
                do {
                    var record = try decoder.decode(Record.self, from: Data(body.utf8))
                    record.sequence = sequence
                    found.append(record)
                } catch {
                    throw PostgresStoreError.undecodable(store: name, key: String(sequence), reason: String(describing: error))
                }
            }
            return found
        }
    }
}
