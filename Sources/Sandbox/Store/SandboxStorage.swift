/// Where one sandbox keeps every provider's records: each store is made here by a name unique in
/// the sandbox, so one setting moves all of them (memory by default; a database that several
/// instances share). A store's records must be `Codable` so a database can keep them as rows.
protocol SandboxStorage: Sendable {
    /// The store called `name` (e.g. "cashapp.requests"): made once per name and sandbox; two
    /// instances on one database that ask for one name share its records.
    func store<Record: StoredRecord & Codable>(_ name: String, of type: Record.Type, policy: StorePolicy<Record>)
        -> any SandboxRecordStore<Record>

    /// The append-only log called `name` (the request journal), shared like a store by every
    /// instance given the storage; any storage can keep one as a store (`SandboxRecordLog.swift`).
    func log<Record: LoggedRecord>(_ name: String, of type: Record.Type) -> any SandboxRecordLog<Record>
}

/// The default: every store in this process's memory, gone when it ends.
struct MemoryStorage: SandboxStorage {
    func store<Record: StoredRecord & Codable>(_ name: String, of type: Record.Type, policy: StorePolicy<Record>)
        -> any SandboxRecordStore<Record>
    {
        MemoryRecordStore<Record>(policy: policy)
    }

    func log<Record: LoggedRecord>(_ name: String, of type: Record.Type) -> any SandboxRecordLog<Record> {
        MemoryRecordLog<Record>()
    }
}
