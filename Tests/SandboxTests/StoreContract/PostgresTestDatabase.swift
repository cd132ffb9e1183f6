import Foundation
import Logging
import PostgresNIO
import Testing
import TestSupport

@testable import Sandbox

/// The PostgreSQL the store's tests use (`TestPostgres`), reached directly for schemas and SQL.
enum PostgresTestDatabase {
    static let url = TestPostgres.url
    static let isEnabled = TestPostgres.isEnabled
    static let skipReason = TestPostgres.skipReason
    typealias Missing = TestPostgres.Missing

    /// The database the URL names, in `schema` when given.
    static func location(schema: String? = nil) throws -> PostgresLocation {
        guard let url else { throw Missing() }
        var location = try PostgresLocation(parsing: url)
        location.schema = schema
        return location
    }

    /// Runs `sql` on a connection of its own (outside any test's schema).
    static func execute(_ sql: String) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: location().connectionConfiguration(), id: Int.random(in: 1_000...1_000_000), logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static let logger = Logger(label: "checkout.tests.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A new, empty schema: a test's tables see no other test's.
    static func freshSchema(_ purpose: String) async throws -> String {
        let schema = "test_\(purpose)_\(UInt32.random(in: 0...UInt32.max))"
        try await execute("CREATE SCHEMA \(schema)")
        return schema
    }

    /// `body` with `count` prepared, running storages on one fresh schema (two instances of one
    /// sandbox); their pools are closed and the schema dropped afterwards.
    static func withInstances<Value>(
        _ count: Int, purpose: String, poolSize: Int = 4, _ body: ([PostgresStorage]) async throws -> Value
    ) async throws -> Value {
        let schema = try await freshSchema(purpose)
        let storages = try (0..<count).map { _ in PostgresStorage(location: try location(schema: schema), poolSize: poolSize, logger: logger) }
        let runs = storages.map { storage in Task { try await storage.run() } }
        do {
            for storage in storages { try await storage.prepare() }
            let value = try await body(storages)
            await finish(runs, schema: schema)
            return value
        } catch {
            await finish(runs, schema: schema)
            throw error
        }
    }

    private static func finish(_ runs: [Task<Void, any Error>], schema: String) async {
        for run in runs { run.cancel() }
        for run in runs { _ = await run.result }
        try? await execute("DROP SCHEMA \(schema) CASCADE")
    }

    /// The storage every contract test shares (one schema per test process; each test its own store name).
    static let contractStorage = Task<PostgresStorage, any Error> {
        let schema = try await freshSchema("contract")
        let storage = PostgresStorage(location: try location(schema: schema), poolSize: 8, logger: logger)
        try await storage.prepare()
        Task.detached { try? await storage.run() }
        return storage
    }
}

/// A contract test's PostgreSQL store: a store name of its own on the shared storage, reached
/// once the storage is ready.
struct PostgresContractStore: SandboxRecordStore {
    let name = "contract.\(UUID().uuidString)"
    let policy: StorePolicy<ContractRecord>

    private func store() async throws -> any SandboxRecordStore<ContractRecord> {
        try await PostgresTestDatabase.contractStorage.value.store(name, of: ContractRecord.self, policy: policy)
    }

    func create(
        idempotencyKey: String?, requiring claims: [String], at moment: StoreMoment, sameRequest: (ContractRecord) -> Bool,
        alongside: (inout ContractRecord, ContractRecord) -> Void, make: (Int) -> ContractRecord
    ) async throws -> RecordCreation<ContractRecord> {
        try await store().create(
            idempotencyKey: idempotencyKey, requiring: claims, at: moment, sameRequest: sameRequest, alongside: alongside, make: make)
    }

    func record(_ lookup: RecordLookup, at moment: StoreMoment?) async throws -> ContractRecord? {
        try await store().record(lookup, at: moment)
    }

    func update<Value>(_ lookup: RecordLookup, at moment: StoreMoment?, _ change: (inout ContractRecord) -> Value) async throws
        -> RecordUpdate<Value, ContractRecord>
    {
        try await store().update(lookup, at: moment, change)
    }

    func remove(_ key: String, if condition: (ContractRecord) -> Bool) async throws -> ContractRecord? {
        try await store().remove(key, if: condition)
    }

    func records(at moment: StoreMoment?) async throws -> [ContractRecord] {
        try await store().records(at: moment)
    }

    func first(at moment: StoreMoment?, where predicate: (ContractRecord) -> Bool) async throws -> ContractRecord? {
        try await store().first(at: moment, where: predicate)
    }

    func settle(at moment: StoreMoment) async throws {
        try await store().settle(at: moment)
    }

    func count() async throws -> Int {
        try await store().count()
    }
}
