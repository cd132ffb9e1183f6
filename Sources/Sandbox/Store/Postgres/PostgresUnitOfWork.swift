import Foundation
import PostgresNIO

/// How a unit of work ends.
enum PostgresUnitEnd: Sendable {
    case commit
    /// Nothing the unit did is kept (it found a reason not to write, after writing).
    case rollback
}

extension PostgresStorage {
    /// Runs `body` as one transaction on one pooled connection, and tries it again (from the
    /// start, with a fresh `BEGIN`) when the database reports a deadlock, a serialization failure
    /// or a lost race for a unique key, up to `attempts` times. `body` therefore runs more than
    /// once in that case: what it decides must rest on what it reads in that attempt.
    ///
    /// Isolation: READ COMMITTED with explicit locking, not SERIALIZABLE. Every decision a unit
    /// makes rests either on a row it has locked (`SELECT … FOR UPDATE` of the records it changes;
    /// the store's sequence row, which orders its creates) or on a unique index that decides a race
    /// (`INSERT … ON CONFLICT` of idempotency keys and claims). Each statement then sees what
    /// committed before it, so a waiter re-reads the winner's row. SERIALIZABLE would give the same
    /// outcome at the cost of aborting most racers (32 creates with one idempotency key would mostly
    /// fail and retry), and predicate locks on every read.
    func unit(
        _ operation: String, store: String, _ body: (PostgresConnection) async throws -> PostgresUnitEnd
    ) async throws(PostgresStoreError) {
        var attempt = 0
        while true {
            attempt += 1
            do {
                try await client.withConnection { connection in
                    try await connection.query("BEGIN", logger: logger)
                    let end: PostgresUnitEnd
                    do {
                        end = try await body(connection)
                    } catch {
                        do {
                            try await connection.query("ROLLBACK", logger: logger)
                        } catch {
                            // A connection left inside a transaction must not go back to the pool.
                            try? await connection.close()
                        }
                        throw error
                    }
                    switch end {
                    case .commit: try await connection.query("COMMIT", logger: logger)
                    case .rollback: try await connection.query("ROLLBACK", logger: logger)
                    }
                }
                return
            } catch {
                if attempt < attempts, Self.isWorthRetrying(error) { continue }
                throw storeError(error, operation: operation, store: store)
            }
        }
    }

    /// One statement outside a transaction (a plain read sees a consistent snapshot by itself);
    /// tried again, as a unit is, when it lost a race (retention's deletes can deadlock with a unit).
    func read<Value: Sendable>(
        _ operation: String, store: String, _ body: (PostgresConnection) async throws -> Value
    ) async throws(PostgresStoreError) -> Value {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await client.withConnection { connection in try await body(connection) }
            } catch {
                if attempt < attempts, Self.isWorthRetrying(error) { continue }
                throw storeError(error, operation: operation, store: store)
            }
        }
    }

    func storeError(_ error: any Error, operation: String, store: String) -> PostgresStoreError {
        if let error = error as? PostgresStoreError { return error }
        return .failed(operation: operation, store: store, reason: PostgresStoreError.reason(error, at: location))
    }

    /// Deadlock detected, serialization failure, or a unique key another transaction took first
    /// (the next attempt sees the winner's row).
    static func isWorthRetrying(_ error: any Error) -> Bool {
        if error is PostgresLostRace { return true }
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001" || state == "23505"
    }
}

/// What a unit saw changed under it between two of its statements (a claim's holder let it go
/// after the claim was refused; an idempotency key's record forgotten after the key was found):
/// the unit is tried again, and sees the new state from the start.
struct PostgresLostRace: Error {}
