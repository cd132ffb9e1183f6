import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import Sandbox

/// The PostgreSQL store's own promises, over a real socket: several instances on one database
/// are one sandbox (records, idempotency keys, claims, time and retention shared; migrations
/// once), and a database it cannot use is a clear error that never shows the password.
/// One test at a time: each starts pools on two instances, and in parallel they starved the tmux
/// journeys running beside them on a 2-core machine.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.isEnabled, PostgresTestDatabase.skipReason))
struct PostgresStoreTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func at(_ seconds: Double, _ retention: Retention? = nil) -> StoreMoment {
        StoreMoment(now: start.addingTimeInterval(seconds), retention: retention)
    }

    private func stores(_ storages: [PostgresStorage], _ name: String = "shared", policy: StorePolicy<ContractRecord> = StorePolicy())
        -> [any SandboxRecordStore<ContractRecord>]
    {
        storages.map { $0.store(name, of: ContractRecord.self, policy: policy) }
    }

    private func create(
        _ store: any SandboxRecordStore<ContractRecord>, _ record: ContractRecord, requiring claims: [String] = [],
        at moment: StoreMoment
    ) async throws -> RecordCreation<ContractRecord> {
        try await store.create(
            idempotencyKey: record.idempotencyKey, requiring: claims, at: moment, sameRequest: { $0.body == record.body },
            alongside: { _, _ in }, make: { sequence in
                var made = record
                made.sequence = sequence
                return made
            })
    }

    // MARK: - Two instances, one sandbox

    @Test func twoInstancesOnOneDatabaseSeeEachOthersRecords() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "shared") { storages in
            let stores = stores(storages)
            _ = try await create(stores[0], ContractRecord(key: "a", idempotencyKey: "k", body: "x"), at: at(0))
            #expect(try await stores[1].record(.key("a"), at: nil)?.body == "x")
            #expect(try await stores[1].record(.idempotencyKey("k"), at: nil)?.key == "a")
            _ = try await stores[1].update(.key("a"), at: nil) { $0.note = "approved on B" }
            #expect(try await stores[0].record(.key("a"), at: nil)?.note == "approved on B")
            _ = try await create(stores[1], ContractRecord(key: "b"), at: at(1))
            #expect(try await stores[0].records(at: nil).map(\.key) == ["a", "b"])
            #expect(try await stores[0].records(at: nil).map(\.sequence) == [0, 1])
            // Another store name on the same database is another store.
            let other = storages[0].store("other", of: ContractRecord.self, policy: StorePolicy())
            #expect(try await other.count() == 0)
        }
    }

    @Test func oneIdempotencyKeyRacedThroughTwoInstancesMakesOneRecord() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "idempotency", poolSize: 8) { storages in
            let stores = stores(storages)
            let outcomes = try await raceOneIdempotencyKey(stores, count: 64, key: "one-key")
            #expect(outcomes.filter { $0 == "created" }.count == 1)
            #expect(outcomes.filter { $0 == "replayed" }.count == 63)
            #expect(try await stores[0].count() == 1)
        }
    }

    /// `--max-faults` holds across instances: adds raced through two keep exactly the limit, round
    /// after round (a race lost once in a few hundred adds still shows).
    @Test func faultsAddedThroughTwoInstancesAtOnceNeverPassTheLimit() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "faults", poolSize: 8) { storages in
            let plans = storages.map { FaultPlan(limit: 5, storage: $0) }
            for round in 0..<8 {
                try await plans[round % 2].clear()
                let added = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for number in 0..<48 {
                        group.addTask {
                            do {
                                try await plans[number % 2].add(try FaultRule(spec: "GET /race/\(round)/\(number) 503"))
                                return true
                            } catch is FaultPlanFull {
                                return false
                            }
                        }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(added == 5, "round \(round)")
                #expect(try await plans[0].pending.count == 5, "round \(round)")
                #expect(try await plans[1].pending.count == 5, "round \(round)")
            }
        }
    }

    /// Each instance reads the fault list at most every 0.1 s, yet a fault added through one hits
    /// the very next matching request at the other, and is used there once.
    @Test func aFaultAddedThroughOneInstanceHitsTheNextRequestAtTheOther() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "fault_view") { storages in
            let plans = storages.map { FaultPlan(limit: 5, storage: $0) }
            for round in 0..<5 {
                // B has just read the list (no fault then): its view is fresh when A adds one.
                #expect(try await plans[1].take(method: "GET", path: "/hit/\(round)", run: nil) == nil)
                try await plans[0].add(try FaultRule(spec: "GET /hit/\(round) 503"))
                #expect(try await plans[1].take(method: "GET", path: "/hit/\(round)", run: nil) == .serviceUnavailable)
                #expect(try await plans[0].take(method: "GET", path: "/hit/\(round)", run: nil) == nil)
            }
        }
    }

    @Test func aClaimRacedFromTwoInstancesIsTakenOnce() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "claims", poolSize: 8) { storages in
            let stores = stores(storages)
            // Creates that each need the claim.
            let created = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<32 {
                    let store = stores[index % 2]
                    group.addTask {
                        let outcome = try await store.create(
                            idempotencyKey: nil, requiring: ["grant-1"], at: StoreMoment(now: .distantPast), sameRequest: { _ in false },
                            alongside: { _, _ in }, make: { _ in ContractRecord(key: "pay-\(index)", claim: "grant-1") })
                        if case .created = outcome { return true }
                        return false
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(created == 1)
            #expect(try await stores[0].count() == 1)

            // Updates that each would take another claim.
            for index in 0..<16 { _ = try await create(stores[index % 2], ContractRecord(key: "spend-\(index)"), at: at(0)) }
            let changed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<16 {
                    let store = stores[index % 2]
                    group.addTask {
                        let outcome = try await store.update(.key("spend-\(index)"), at: nil) { $0.claim = "source-1" }
                        if case .changed = outcome { return true }
                        return false
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(changed == 1)
            let holders = try await stores[1].records(at: nil).filter { $0.claim == "source-1" }
            #expect(holders.count == 1)
            #expect(try await stores[1].record(.claim("source-1"), at: nil)?.key == holders.first?.key)
        }
    }

    @Test func settlingRacedFromTwoInstancesChangesEachRecordOnceAndTellsOnce() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "settle", poolSize: 8) { storages in
            let told = Mutex<[String]>([])
            let policy = StorePolicy<ContractRecord>(
                settle: { record, now in
                    guard ContractRecord.settle(&record, now) else { return false }
                    record.note += "settled;"
                    return true
                },
                onSettled: { records in told.withLock { $0 += records.map(\.key) } })
            let stores = stores(storages, policy: policy)
            let keys = (0..<20).map { "due-\($0)" }
            for key in keys {
                _ = try await create(stores[0], ContractRecord(key: key, isOpen: true, dueAt: start.addingTimeInterval(10)), at: at(0))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<16 {
                    let store = stores[index % 2]
                    group.addTask {
                        if index % 4 == 0 {
                            _ = try await store.records(at: StoreMoment(now: start.addingTimeInterval(20)))
                        } else {
                            try await store.settle(at: StoreMoment(now: start.addingTimeInterval(20)))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let records = try await stores[1].records(at: nil)
            #expect(records.allSatisfy { $0.settled && !$0.isOpen && $0.note == "settled;" })
            #expect(told.withLock { $0 }.sorted() == keys.sorted())
        }
    }

    @Test func withTheSettlesAtHintOnlyDueRecordsAreVisitedAndAllSettleOnTime() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "hint") { storages in
            let visited = Mutex<[String]>([])
            let policy = StorePolicy<ContractRecord>(
                settle: { record, now in
                    visited.withLock { $0.append(record.key) }
                    return ContractRecord.settle(&record, now)
                },
                settlesAt: { $0.dueAt })
            let stores = stores(storages, policy: policy)
            _ = try await create(stores[0], ContractRecord(key: "soon", isOpen: true, dueAt: start.addingTimeInterval(10)), at: at(0))
            _ = try await create(stores[0], ContractRecord(key: "late", isOpen: true, dueAt: start.addingTimeInterval(100)), at: at(0))
            visited.withLock { $0 = [] }
            #expect(try await stores[1].record(.key("soon"), at: at(5))?.settled == false)
            #expect(visited.withLock { $0 } == [])
            #expect(try await stores[1].record(.key("soon"), at: at(50))?.settled == true)
            #expect(!visited.withLock { $0 }.contains("late"))
            #expect(try await stores[0].record(.key("late"), at: at(100))?.settled == true)
        }
    }

    @Test func retentionByAgeAndCountHoldsAcrossInstances() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "retention") { storages in
            let stores = stores(storages)
            let byCount = Retention(age: 3_600, capacity: 5)
            for index in 0..<12 {
                _ = try await create(stores[index % 2], ContractRecord(key: "r\(index)", idempotencyKey: "k\(index)"), at: at(Double(index), byCount))
            }
            #expect(try await stores[0].records(at: nil).map(\.key) == ["r7", "r8", "r9", "r10", "r11"])
            #expect(try await stores[1].record(.idempotencyKey("k6"), at: nil) == nil)

            let byAge = Retention(age: 60, capacity: 100)
            try await stores[1].settle(at: at(70, byAge))
            // Made at 10 s, r10 is 60 s old at 70 s: as old as the age, so forgotten too.
            #expect(try await stores[0].records(at: nil).map(\.key) == ["r11"])
            guard case .created = try await create(stores[0], ContractRecord(key: "again", idempotencyKey: "k7"), at: at(70, byAge)) else {
                Issue.record("a forgotten idempotency key still replays")
                return
            }
        }
    }

    @Test func resetEmptiesEveryStore() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "reset") { storages in
            let requests = storages[0].store("requests", of: ContractRecord.self, policy: StorePolicy())
            let payments = storages[0].store("payments", of: ContractRecord.self, policy: StorePolicy())
            _ = try await create(requests, ContractRecord(key: "a", idempotencyKey: "k", claim: "c"), requiring: ["c"], at: at(0))
            _ = try await create(payments, ContractRecord(key: "b"), at: at(0))
            try await storages[0].reset()
            #expect(try await requests.count() == 0)
            #expect(try await payments.count() == 0)
            // Numbers, keys and claims start again.
            guard case .created(let made) = try await create(requests, ContractRecord(key: "a2", idempotencyKey: "k", claim: "c"), requiring: ["c"], at: at(1))
            else {
                Issue.record("a key or claim outlived the reset")
                return
            }
            #expect(made.sequence == 0)
        }
    }

    // MARK: - Schema

    @Test func instancesStartingAtOnceMigrateOnce() async throws {
        let schema = try await PostgresTestDatabase.freshSchema("migrate")
        defer { Task { try? await PostgresTestDatabase.execute("DROP SCHEMA \(schema) CASCADE") } }
        let location = try PostgresTestDatabase.location(schema: schema)
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask { try await PostgresStorage(location: location, poolSize: 1, logger: PostgresTestDatabase.logger).prepare() }
            }
            return try await group.reduce(into: [[Int]]()) { $0.append($1) }
        }
        #expect(applied.filter { !$0.isEmpty } == [Array(1...PostgresSchema.version)])
        #expect(applied.filter(\.isEmpty).count == 3)
        // Started again, there is nothing to do.
        #expect(try await PostgresStorage(location: location, poolSize: 1, logger: PostgresTestDatabase.logger).prepare() == [])
    }

    @Test func aDatabaseWithANewerSchemaIsRefusedNamingBothVersions() async throws {
        let schema = try await PostgresTestDatabase.freshSchema("newer")
        defer { Task { try? await PostgresTestDatabase.execute("DROP SCHEMA \(schema) CASCADE") } }
        let location = try PostgresTestDatabase.location(schema: schema)
        try await PostgresStorage(location: location, poolSize: 1, logger: PostgresTestDatabase.logger).prepare()
        let newer = PostgresSchema.version + 7
        try await PostgresTestDatabase.execute("INSERT INTO \(schema).sandbox_schema_version (version) VALUES (\(newer))")
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresStorage(location: location, poolSize: 1, logger: PostgresTestDatabase.logger).prepare()
        }
        #expect(error == .schemaTooNew(url: location.redacted, database: newer, known: PostgresSchema.version))
        let message = String(describing: error)
        #expect(message.contains("version \(newer)") && message.contains("(version \(PostgresSchema.version))"))
        #expect(message.contains(location.redacted))
        if let password = location.password { #expect(!message.contains(password)) }
    }

    // MARK: - A database it cannot use

    @Test func aWrongPasswordFailsAtStartNamingTheURLWithoutThePassword() async throws {
        var location = try PostgresTestDatabase.location()
        location.password = "not-the-password-9f3c"
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresStorage(location: location, poolSize: 1, logger: PostgresTestDatabase.logger).prepare()
        }
        let message = String(describing: error)
        print("A wrong password reads: \(message)")
        #expect(message.contains(location.redacted), "\(message)")
        #expect(!message.contains("not-the-password-9f3c"))
        #expect(error?.isUnavailable == true)
    }

    @Test func aClosedPortFailsAtStartNamingTheURLWithoutThePassword() async throws {
        var location = try PostgresTestDatabase.location()
        location.password = "secret-on-a-closed-port"
        location.port = try closedPort()
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresStorage(location: location, poolSize: 1, logger: PostgresTestDatabase.logger).prepare()
        }
        let message = String(describing: error)
        print("A closed port reads: \(message)")
        #expect(message.contains("postgres://\(location.user):***@\(location.host):\(location.port)/"), "\(message)")
        #expect(!message.contains("secret-on-a-closed-port"))
    }

    @Test func aMissingDatabaseFailsAtStartNamingIt() async throws {
        var location = try PostgresTestDatabase.location()
        location.database = "no_such_sandbox_db"
        let error = await #expect(throws: PostgresStoreError.self) {
            try await PostgresStorage(location: location, poolSize: 1, logger: PostgresTestDatabase.logger).prepare()
        }
        let message = String(describing: error)
        #expect(message.contains(location.redacted) && message.contains("no_such_sandbox_db"), "\(message)")
        if let password = location.password { #expect(!message.contains(password)) }
    }

    @Test func anOperationWithoutTheDatabaseThrowsAnErrorNamingItWithoutThePassword() async throws {
        let location = try PostgresTestDatabase.location()
        let storage = PostgresStorage(location: location, poolSize: 1, logger: PostgresTestDatabase.logger)
        try await storage.prepare()
        // The pool shut down (as when the sandbox stops): every operation fails at once.
        let run = Task { try await storage.run() }
        run.cancel()
        _ = await run.result
        let store = storage.store("gone", of: ContractRecord.self, policy: StorePolicy())
        let error = await #expect(throws: PostgresStoreError.self) {
            _ = try await create(store, ContractRecord(key: "a"), at: at(0))
        }
        guard case .failed(let operation, let name, _) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(operation == "create" && name == "gone")
        #expect(error?.isUnavailable == true)
        if let password = location.password { #expect(!String(describing: error).contains(password)) }
    }

    /// A port nothing listens on: bound, then closed.
    private func closedPort() throws -> Int {
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
        let port = channel.localAddress?.port ?? 1
        try channel.close().wait()
        return port
    }
}

/// Reading `--store` URLs (no database needed).
@Suite struct PostgresLocationTests {
    @Test func aFullURLIsReadAndItsPasswordNeverShown() throws {
        let location = try PostgresLocation(parsing: "postgresql://team:s%40cret@db.example:6543/sandbox?sslmode=require")
        #expect(location.user == "team")
        #expect(location.password == "s@cret")
        #expect(location.host == "db.example")
        #expect(location.port == 6543)
        #expect(location.database == "sandbox")
        #expect(location.tls == .require)
        #expect(location.redacted == "postgres://team:***@db.example:6543/sandbox?sslmode=require")
        #expect("\(location)" == location.redacted)
        #expect(location.scrubbing("auth failed for s@cret") == "auth failed for ***")
    }

    @Test func theDefaultsAreTheUsualPortAndPreferredTLS() throws {
        let location = try PostgresLocation(parsing: "postgres://me@localhost/db")
        #expect(location.port == 5432)
        #expect(location.password == nil)
        #expect(location.tls == .prefer)
        #expect(location.redacted == "postgres://me@localhost:5432/db")
    }

    @Test(arguments: [
        ("mysql://u@h:1/d", "scheme"),
        ("localhost:5432/db", "scheme"),
        ("postgres://h:5432/db", "user"),
        ("postgres://u:pw@:5432/db", "host"),
        ("postgres://u:pw@h:5432", "database"),
        ("postgres://u:pw@h:5432/a/b", "database"),
        ("postgres://u:pw@h:99999/db", "port"),
        ("postgres://u:pw@h:5432/db?sslmode=sometimes", "sslmode"),
        ("postgres://u:pw@h:5432/db?pool=3", "pool"),
    ])
    func aBadURLNamesTheFieldWithoutThePassword(url: String, field: String) {
        do {
            _ = try PostgresLocation(parsing: url)
            Issue.record("\(url) was accepted")
        } catch {
            guard case .invalidURL(let named, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == field, "\(url): \(error)")
            #expect(!error.description.contains(":pw@"))
        }
    }
}
