import Foundation
import Logging
import PostgresNIO

/// The sandbox's tables in PostgreSQL and the migrations that make them. Every store shares them,
/// its rows told apart by the store's name:
///
/// - `sandbox_records`: one row per record, its JSON (`body`, as text: exactly what was written, `\u0000` escapes included, which JSONB refuses; `body::jsonb` reads it in psql) keyed by (store, key), with
///   its creation number, creation time, whether time can still change it (and from when, when the
///   store's policy says: `StorePolicy.settlesAt`) and its group.
/// - `sandbox_idempotency_keys`, `sandbox_claims`: the indexes, each under a primary key, so two
///   instances racing for one key or claim are decided by the database; their rows go with their
///   record (a cascading foreign key).
/// - `sandbox_record_numbers` (a sequence, version 2): records' creation numbers, from one
///   sequence for every store, so creates take a number without holding any row.
/// - `sandbox_sequences`: each log's next number (the journal's, taken under its row lock, so its
///   numbers commit in order and a reader's `since=` cursor misses nothing), and the number below
///   which its rows are all trimmed (version 3).
/// - `sandbox_schema_version`: one row per migration applied.
enum PostgresSchema {
    /// Every migration, in order: version N is `migrations[N - 1]`. Add new ones at the end; never
    /// change one that has shipped.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE sandbox_records (
                store text NOT NULL,
                key text NOT NULL,
                sequence bigint NOT NULL,
                created_at double precision NOT NULL,
                is_open boolean NOT NULL,
                settles_at double precision,
                record_group text,
                body text NOT NULL,
                PRIMARY KEY (store, key)
            )
            """,
            "CREATE UNIQUE INDEX sandbox_records_order ON sandbox_records (store, sequence)",
            "CREATE INDEX sandbox_records_age ON sandbox_records (store, created_at)",
            "CREATE INDEX sandbox_records_open ON sandbox_records (store, settles_at) WHERE is_open",
            "CREATE INDEX sandbox_records_group ON sandbox_records (store, record_group) WHERE record_group IS NOT NULL",
            """
            CREATE TABLE sandbox_idempotency_keys (
                store text NOT NULL,
                idempotency_key text NOT NULL,
                record_key text,
                PRIMARY KEY (store, idempotency_key),
                FOREIGN KEY (store, record_key) REFERENCES sandbox_records (store, key)
                    ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
            )
            """,
            "CREATE INDEX sandbox_idempotency_keys_record ON sandbox_idempotency_keys (store, record_key)",
            """
            CREATE TABLE sandbox_claims (
                store text NOT NULL,
                claim text NOT NULL,
                record_key text NOT NULL,
                PRIMARY KEY (store, claim),
                FOREIGN KEY (store, record_key) REFERENCES sandbox_records (store, key)
                    ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
            )
            """,
            "CREATE INDEX sandbox_claims_record ON sandbox_claims (store, record_key)",
            "CREATE TABLE sandbox_sequences (store text PRIMARY KEY, next bigint NOT NULL)",
        ],
        [
            // Version 1 numbered each store's records under its `sandbox_sequences` row, held to
            // commit: creates in one store waited for each other, across instances too.
            "CREATE SEQUENCE sandbox_record_numbers AS bigint MINVALUE 0 START 0 OWNED BY sandbox_records.sequence",
            """
            SELECT setval('sandbox_record_numbers', coalesce((SELECT max(sequence) + 1 FROM sandbox_records), 0), false)
            """,
            // Rows come and go all the time: autovacuum truncating the tables' empty tail takes
            // an exclusive lock that stalls every instance's statements for as long as it waits.
            "ALTER TABLE sandbox_records SET (vacuum_truncate = false)",
            "ALTER TABLE sandbox_idempotency_keys SET (vacuum_truncate = false)",
            "ALTER TABLE sandbox_claims SET (vacuum_truncate = false)",
        ],
        [
            // A log's trim deleted every number below its cut, walking each row trimmed since the
            // last vacuum (thousands under load, 7 ms a batch); now only those since the last cut.
            "ALTER TABLE sandbox_sequences ADD COLUMN trimmed_before bigint NOT NULL DEFAULT 0",
        ],
    ]

    /// The schema version this build makes and understands.
    static var version: Int { migrations.count }

    /// Every table `reset` empties (the version table stays).
    static let dataTables = ["sandbox_claims", "sandbox_idempotency_keys", "sandbox_records", "sandbox_sequences"]

    /// The advisory lock every instance takes to migrate: one migrates while the others wait, then
    /// find nothing left to do. (An arbitrary constant: "checkout" in ASCII.)
    static let migrationLock: Int64 = 0x63_68_65_63_6B_6F_75_74

    /// Brings the database to `version` in one transaction under the advisory lock; refuses one
    /// whose schema is newer. Returns the migrations it applied (none when another instance or an
    /// earlier start already had).
    @discardableResult
    static func migrate(_ connection: PostgresConnection, location: PostgresLocation, logger: Logger) async throws -> [Int] {
        try await connection.query("BEGIN", logger: logger)
        do {
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS sandbox_schema_version (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var current = 0
            for try await (version) in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM sandbox_schema_version", logger: logger
            ).decode(Int.self) {
                current = version
            }
            guard current <= version else {
                throw PostgresStoreError.schemaTooNew(url: location.redacted, database: current, known: version)
            }
            var applied: [Int] = []
            for next in (current + 1)..<(version + 1) {
                for statement in migrations[next - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO sandbox_schema_version (version) VALUES (\(next))", logger: logger)
                applied.append(next)
            }
            try await connection.query("COMMIT", logger: logger)
            return applied
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Empties every store's records, keys, claims and numbering in one statement.
    static func reset(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            PostgresQuery(unsafeSQL: "TRUNCATE " + dataTables.joined(separator: ", ") + " RESTART IDENTITY"), logger: logger)
    }
}
