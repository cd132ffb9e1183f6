import PostgresNIO

/// The two statements every benchmarked request runs (Cash App's create and retrieve), prepared
/// once per pooled connection: PostgreSQL then parses and plans them once, not on every request.
/// Their text is fixed; what varies (the store's name included) is bound.
enum PostgresHotStatements {
    /// `PostgresRecordStore.createInOneStatement`: the idempotency key reserved and the record
    /// inserted and numbered, or nothing when the key is known. A row when the record was created.
    struct Create: PostgresPreparedStatement {
        static let sql = """
            WITH reserved AS (
                    INSERT INTO sandbox_idempotency_keys (store, idempotency_key, record_key) VALUES ($1, $2, $3)
                    ON CONFLICT DO NOTHING RETURNING 1)
            INSERT INTO sandbox_records (store, key, sequence, created_at, is_open, settles_at, record_group, body)
            SELECT $1, $3, nextval('sandbox_record_numbers'), $4, $5, $6, NULL, $7
            FROM reserved RETURNING 1
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .float8, .bool, .float8, .text]
        typealias Row = Int

        let store: String
        let idempotencyKey: String
        let key: String
        let createdAt: Double
        let isOpen: Bool
        let settlesAt: Double?
        let body: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(store)
            bindings.append(idempotencyKey)
            bindings.append(key)
            bindings.append(createdAt)
            bindings.append(isOpen)
            bindings.append(settlesAt)
            bindings.append(body)
            return bindings
        }

        func decodeRow(_ row: PostgresNIO.PostgresRow) throws -> Int { try row.decode(Int.self) }
    }

    /// A record by its key, unless it is past its age (created at `oldestKept` or earlier).
    struct RecordByKey: PostgresPreparedStatement {
        static let sql = """
            SELECT key, body FROM sandbox_records WHERE store = $1 AND key = $2 AND created_at > $3
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .float8]
        typealias Row = (String, String)

        let store: String
        let key: String
        let oldestKept: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(store)
            bindings.append(key)
            bindings.append(oldestKept)
            return bindings
        }

        func decodeRow(_ row: PostgresNIO.PostgresRow) throws -> (String, String) { try row.decode((String, String).self) }
    }
}
