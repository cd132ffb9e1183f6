import Synchronization

/// Where one sandbox keeps every provider's records: each store is made here by a name unique in
/// the sandbox, so one setting moves all of them (memory by default; a database that several
/// instances share). A store's records must be `Codable` so a database can keep them as rows.
protocol SandboxStorage: Sendable {
    /// The store called `name` (e.g. "cashapp.requests"): made once per name and sandbox; two
    /// instances on one database that ask for one name share its records.
    func store<Record: StoredRecord & Codable>(_ name: String, of type: Record.Type, policy: StorePolicy<Record>)
        -> any SandboxRecordStore<Record>

    /// Runs one provider operation so that what it writes through this storage's stores is kept
    /// whole or not at all (see each storage for what that means for it). A provider wraps every
    /// operation that writes more than once (two stores, or a store and the webhook log) in it.
    /// What the operation sends out of the process (`SandboxCommit.afterwards`) goes once it is
    /// kept. The body may run more than once (a database retries a transaction that deadlocked
    /// or lost a race): what it decides must rest on what it reads. An error the body throws is
    /// rethrown as it is; a store's failure (nothing kept) is `SandboxStoreUnavailable`.
    func atomically<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value

    /// The append-only log called `name` (the request journal), shared like a store by every
    /// instance given the storage; any storage can keep one as a store (`SandboxRecordLog.swift`).
    func log<Record: LoggedRecord>(_ name: String, of type: Record.Type) -> any SandboxRecordLog<Record>
}

extension SandboxStorage {
    /// A storage whose stores have no transactions of their own: the body alone.
    func atomically<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        try await body()
    }
}

/// The default: every store in this process's memory, gone when it ends.
///
/// `atomically` is the body alone. Memory never fails part-way (no I/O), so an operation's
/// writes are all kept; what memory does not give is isolation across stores: each store call is
/// one hold of that store's lock, so two operations' calls on two stores may interleave (as each
/// provider's own checks already allow: claims and idempotency keys are decided inside one store).
struct MemoryStorage: SandboxStorage {
    func store<Record: StoredRecord & Codable>(_ name: String, of type: Record.Type, policy: StorePolicy<Record>)
        -> any SandboxRecordStore<Record>
    {
        MemoryRecordStore<Record>(policy: policy)
    }

    func atomically<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        try await body()
    }

    func log<Record: LoggedRecord>(_ name: String, of type: Record.Type) -> any SandboxRecordLog<Record> {
        MemoryRecordLog<Record>()
    }
}

/// What an operation sends out of the process (a webhook delivery set going) waits for the
/// operation's writes to be kept: inside a database's `atomically`, until its commit; a
/// transaction rolled back (or tried again) drops it, running its `otherwise` instead.
enum SandboxCommit {
    /// The actions waiting for the enclosing transaction's commit, if one is open.
    @TaskLocal static var pending: SandboxCommitActions?

    /// Runs `action` once what the current operation wrote is kept: at once outside a
    /// transaction, after the commit inside one. When the transaction is not kept, `otherwise`
    /// runs instead (to give back what was reserved for the action).
    static func afterwards(_ action: @escaping @Sendable () -> Void, otherwise: (@Sendable () -> Void)? = nil) {
        if let pending, pending.add(action, otherwise: otherwise) { return }
        action()
    }
}

/// One transaction's actions waiting for its end.
final class SandboxCommitActions: Sendable {
    private struct State {
        var open = true
        var actions: [(done: @Sendable () -> Void, otherwise: (@Sendable () -> Void)?)] = []
    }

    private let state = Mutex(State())

    /// Keeps the action for the end; false when the transaction already ended (run it now).
    func add(_ action: @escaping @Sendable () -> Void, otherwise: (@Sendable () -> Void)?) -> Bool {
        state.withLock { state in
            guard state.open else { return false }
            state.actions.append((action, otherwise))
            return true
        }
    }

    /// Ends the transaction: runs each action (kept) or its `otherwise` (not kept), in order.
    func end(kept: Bool) {
        let actions = state.withLock { state in
            state.open = false
            defer { state.actions = [] }
            return state.actions
        }
        for action in actions {
            if kept { action.done() } else { action.otherwise?() }
        }
    }
}
