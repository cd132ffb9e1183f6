import Foundation
import PostgresNIO
import Synchronization

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
        if let transaction = try joinedTransaction(operation, store: store) {
            try await transaction.nested(operation, store: store, in: self, body)
            return
        }
        var attempt = 0
        while true {
            attempt += 1
            do {
                try await client.withConnection { connection in
                    try await connection.query("BEGIN", logger: logger)
                    let end: PostgresUnitEnd
                    do {
                        end = try await body(connection)
                        try injectedFault(operation, store: store)
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
        if let transaction = try joinedTransaction(operation, store: store) {
            return try await transaction.read(operation, store: store, in: self, body)
        }
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

// MARK: - One transaction per provider operation

extension PostgresStorage {
    /// Runs `body` (a provider operation) as one transaction on one pooled connection: every
    /// store call it makes through this storage joins that transaction (each in a savepoint of
    /// its own) instead of taking a connection of its own, so a pool that is full never makes an
    /// operation wait on itself. Kept whole when the body returns or throws its own error (a
    /// provider's refusal keeps what it wrote, as memory does); rolled back whole when a store
    /// call failed (the database went away: `SandboxStoreUnavailable`, nothing kept) or the body
    /// was cancelled. Tried again whole, up to `attempts` times, when the database reports a
    /// deadlock, a serialization failure or a lost race, even one the body caught. What the
    /// body queued with `SandboxCommit.afterwards` runs after the commit only.
    func atomically<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        let joined: PostgresTransaction?
        do { joined = try joinedTransaction("operation", store: "sandbox") } catch { throw SandboxStoreUnavailable(error) }
        if joined != nil { return try await body() }
        var attempt = 0
        while true {
            attempt += 1
            let actions = SandboxCommitActions()
            let outcome: Result<Value, any Error>
            let kept: Bool
            do {
                (outcome, kept) = try await client.withConnection { connection in
                    try await connection.query("BEGIN", logger: logger)
                    let transaction = PostgresTransaction(owner: self, connection: connection)
                    let result: Result<Value, any Error>
                    do {
                        result = .success(
                            try await PostgresTransaction.$current.withValue(transaction) {
                                try await SandboxCommit.$pending.withValue(actions) { try await body() }
                            })
                    } catch {
                        result = .failure(error)
                    }
                    let state = transaction.finish()
                    let keep: Bool
                    switch result {
                    case .success: keep = !state.broken
                    case .failure(let error): keep = !state.broken && !Self.undoes(error)
                    }
                    if keep {
                        try await connection.query("COMMIT", logger: logger)
                    } else {
                        do {
                            try await connection.query("ROLLBACK", logger: logger)
                        } catch {
                            try? await connection.close()
                        }
                        if let failure = state.failure { throw failure }
                        if state.broken {
                            // The body went on past a store call that failed (or caught it and answered
                            // with an error of its own, a refusal): what it answers was not kept, so the
                            // client hears 503, not a refusal the database's absence caused.
                            switch result {
                            case .failure(let error) where error is SandboxStoreUnavailable || error is PostgresStoreError: break
                            default: throw PostgresStoreError.failed(operation: "operation", store: "sandbox", reason: "a store call in it failed")
                            }
                        }
                    }
                    return (result, keep)
                }
            } catch {
                actions.end(kept: false)
                if attempt < attempts, Self.isWorthRetrying(error) { continue }
                throw SandboxStoreUnavailable(storeError(error, operation: "operation", store: "sandbox"))
            }
            actions.end(kept: kept)
            switch outcome {
            case .success(let value): return value
            case .failure(let error as PostgresStoreError): throw SandboxStoreUnavailable(error)
            case .failure(let error): throw error
            }
        }
    }

    /// The transaction a store call `operation` on `store` joins: the one of the `atomically`
    /// body this task runs, if any; nil outside every operation (the call takes a connection of
    /// its own). A transaction is its body's task's alone. A task started inside the body
    /// inherits it (task-locals are inherited) but may not use it: while the body runs, its
    /// statements would interleave with the body's on one connection, or, on a connection of its
    /// own, wait for rows the body locked (a deadlock on itself when the body awaits it); once the
    /// body ended, the connection is back in the pool, another operation's. Either call fails
    /// loudly (`PostgresStoreError.failed`, naming the operation) rather than depend on when the
    /// task happened to run. Work an operation starts runs outside it: `Task.detached`, or
    /// `SandboxCommit.afterwards` (once it is kept).
    func joinedTransaction(_ operation: String, store: String) throws(PostgresStoreError) -> PostgresTransaction? {
        guard let transaction = PostgresTransaction.current, transaction.owner === self else { return nil }
        switch transaction.use {
        case .serving: return transaction
        case .ended: throw .failed(operation: operation, store: store, reason: PostgresTransaction.endedReason)
        case .otherTask: throw .failed(operation: operation, store: store, reason: PostgresTransaction.otherTaskReason)
        }
    }

    /// Errors after which nothing the body wrote may be kept.
    static func undoes(_ error: any Error) -> Bool {
        error is SandboxStoreUnavailable || error is PostgresStoreError || error is CancellationError || error is PSQLError
            || error is PostgresLostRace
    }

    /// Testing: the unit of work `operation` on `store` fails once its statements ran, before it
    /// is kept (as if the database went away there), while `fault` says so.
    func injectFaults(_ fault: (@Sendable (_ operation: String, _ store: String) -> Bool)?) {
        faults.withLock { $0 = fault }
    }

    func injectedFault(_ operation: String, store: String) throws {
        guard let fault = faults.withLock({ $0 }), fault(operation, store) else { return }
        throw PostgresStoreError.failed(operation: operation, store: store, reason: "fault injected by a test")
    }
}

/// One `atomically` body's transaction: its connection, and what its store calls came to.
final class PostgresTransaction: Sendable {
    /// The transaction of the task running an `atomically` body.
    @TaskLocal static var current: PostgresTransaction?

    struct State: Sendable {
        var open = true
        /// A store call failed (or left the transaction unusable): nothing may be kept.
        var broken = false
        /// Why, when the database said it lost a race (the whole body is tried again).
        var failure: (any Error)?
    }

    let owner: PostgresStorage
    let connection: PostgresConnection
    /// The task running the body: a task it starts (which inherits task-locals) may not use the
    /// transaction (`PostgresStorage.joinedTransaction`).
    private let task: Int?
    private let state = Mutex(State())

    init(owner: PostgresStorage, connection: PostgresConnection) {
        self.owner = owner
        self.connection = connection
        task = withUnsafeCurrentTask { $0?.hashValue }
    }

    /// Who may use it, asked from the current task.
    enum Use {
        /// The body's own task, while the body runs.
        case serving
        /// The body ended (committed or rolled back): its connection is back in the pool.
        case ended
        /// Another task (started inside the body) while the body runs.
        case otherTask
    }

    var use: Use {
        guard state.withLock({ $0.open }) else { return .ended }
        return withUnsafeCurrentTask { $0?.hashValue } == task ? .serving : .otherTask
    }

    static let endedReason =
        "called from a task started inside an operation, after that operation's transaction ended "
        + "(a task an operation starts must run outside it: Task.detached, or SandboxCommit.afterwards)"
    static let otherTaskReason =
        "called from a task started inside an operation, while that operation's transaction is open "
        + "(only the operation's own task uses its transaction; start the task outside it: Task.detached)"

    /// Ends it: what its store calls came to.
    func finish() -> State {
        state.withLock { state in
            state.open = false
            return state
        }
    }

    private func fail(_ error: any Error, retry: Bool) {
        state.withLock { state in
            state.broken = true
            if retry, state.failure == nil { state.failure = error }
        }
    }

    /// A unit of work inside the transaction, in a savepoint: a unit that rolls back undoes only
    /// itself; one that fails breaks the transaction (nothing of it is kept).
    func nested(
        _ operation: String, store: String, in storage: PostgresStorage, _ body: (PostgresConnection) async throws -> PostgresUnitEnd
    ) async throws(PostgresStoreError) {
        do {
            try await connection.query("SAVEPOINT sandbox_unit", logger: storage.logger)
            let end = try await body(connection)
            try storage.injectedFault(operation, store: store)
            if end == .rollback { try await connection.query("ROLLBACK TO SAVEPOINT sandbox_unit", logger: storage.logger) }
            try await connection.query("RELEASE SAVEPOINT sandbox_unit", logger: storage.logger)
        } catch {
            fail(error, retry: PostgresStorage.isWorthRetrying(error))
            throw storage.storeError(error, operation: operation, store: store)
        }
    }

    /// A read inside the transaction: it sees what the body wrote so far.
    func read<Value: Sendable>(
        _ operation: String, store: String, in storage: PostgresStorage, _ body: (PostgresConnection) async throws -> Value
    ) async throws(PostgresStoreError) -> Value {
        do {
            return try await body(connection)
        } catch {
            fail(error, retry: PostgresStorage.isWorthRetrying(error))
            throw storage.storeError(error, operation: operation, store: store)
        }
    }
}
