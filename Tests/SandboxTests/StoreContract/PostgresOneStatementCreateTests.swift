import Foundation
import Testing

@testable import Sandbox

/// A record whose body omits its creation number (as Cash App's customer requests do): the
/// PostgreSQL store creates it in one statement. That path keeps every promise the full unit keeps.
private struct UnnumberedRecord: StoredRecord, Codable, Equatable {
    var key: String
    var idempotencyKey: String
    var body = ""

    var storeKey: String { key }
    var storeIdempotencyKey: String? { idempotencyKey }
    static var storeBodyOmitsSequence: Bool { true }
}

@Suite(.serialized, .enabled(if: PostgresTestDatabase.isEnabled, PostgresTestDatabase.skipReason))
struct PostgresOneStatementCreateTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func create(
        _ store: any SandboxRecordStore<UnnumberedRecord>, _ record: UnnumberedRecord, at seconds: Double = 0, retention: Retention? = nil
    ) async throws -> String {
        let outcome = try await store.create(
            idempotencyKey: record.idempotencyKey, requiring: [], at: StoreMoment(now: start.addingTimeInterval(seconds), retention: retention),
            sameRequest: { $0.body == record.body }, alongside: { _, _ in }, make: { _ in record })
        switch outcome {
        case .created: return "created"
        case .replayed: return "replayed"
        case .keyReused: return "reused"
        case .claimTaken: return "claim"
        }
    }

    @Test func oneKeyRacedThroughTwoInstancesMakesOneRecordAndEveryOtherReplaysIt() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "one_statement_race", poolSize: 8) { storages throws in
            let stores = storages.map { $0.store("unnumbered", of: UnnumberedRecord.self, policy: StorePolicy()) }
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<64 {
                    group.addTask { try await create(stores[index % 2], UnnumberedRecord(key: "r\(index)", idempotencyKey: "one", body: "x")) }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "created" }.count == 1)
            #expect(outcomes.filter { $0 == "replayed" }.count == 63)
            #expect(try await stores[0].count() == 1)
            #expect(try await create(stores[1], UnnumberedRecord(key: "other", idempotencyKey: "one", body: "y")) == "reused")
        }
    }

    @Test func recordsAreNumberedInCreationOrderAndFoundByEitherKey() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "one_statement_order") { storages throws in
            let stores = storages.map { $0.store("unnumbered", of: UnnumberedRecord.self, policy: StorePolicy()) }
            for index in 0..<6 {
                #expect(try await create(stores[index % 2], UnnumberedRecord(key: "r\(index)", idempotencyKey: "k\(index)")) == "created")
            }
            #expect(try await stores[1].records(at: nil).map(\.key) == (0..<6).map { "r\($0)" })
            #expect(try await stores[0].record(.idempotencyKey("k3"), at: nil)?.key == "r3")
        }
    }

    @Test func aTakenRecordKeyIsReplacedAsTheFullUnitWould() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "one_statement_replace") { storages throws in
            let store = storages[0].store("unnumbered", of: UnnumberedRecord.self, policy: StorePolicy())
            #expect(try await create(store, UnnumberedRecord(key: "same", idempotencyKey: "first", body: "old")) == "created")
            #expect(try await create(store, UnnumberedRecord(key: "same", idempotencyKey: "second", body: "new")) == "created")
            #expect(try await store.records(at: nil).map(\.body) == ["new"])
            // The replaced record's key went with it; the new one's names the new record.
            #expect(try await store.record(.idempotencyKey("first"), at: nil) == nil)
            #expect(try await store.record(.idempotencyKey("second"), at: nil)?.body == "new")
        }
    }

    @Test func theAgedAreForgottenByACreate() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "one_statement_age") { storages throws in
            let store = storages[0].store("unnumbered", of: UnnumberedRecord.self, policy: StorePolicy())
            let retention = Retention(age: 60, capacity: 10_000)
            #expect(try await create(store, UnnumberedRecord(key: "old", idempotencyKey: "k-old"), at: 0, retention: retention) == "created")
            #expect(try await create(store, UnnumberedRecord(key: "new", idempotencyKey: "k-new"), at: 61, retention: retention) == "created")
            #expect(try await store.records(at: nil).map(\.key) == ["new"])
            // The forgotten record's key is free again.
            #expect(try await create(store, UnnumberedRecord(key: "again", idempotencyKey: "k-old"), at: 62, retention: retention) == "created")
        }
    }

    /// The hot statements delete the aged at most once a second per instance; in between, reads
    /// never find a record past its age, and its key is free to a new create at once.
    @Test func aRecordPastItsAgeIsNeverFoundWhileItsRowWaitsForTheNextSecond() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "one_statement_age_gate") { storages throws in
            let store = storages[0].store("unnumbered", of: UnnumberedRecord.self, policy: StorePolicy())
            let retention = Retention(age: 10, capacity: 10_000)
            func read(_ key: String, at seconds: Double) async throws -> String? {
                try await store.record(.key(key), at: StoreMoment(now: start.addingTimeInterval(seconds), retention: retention))?.key
            }
            #expect(try await create(store, UnnumberedRecord(key: "a", idempotencyKey: "k-a"), at: 0, retention: retention) == "created")
            #expect(try await create(store, UnnumberedRecord(key: "b", idempotencyKey: "k-b"), at: 0.5, retention: retention) == "created")
            #expect(try await read("b", at: 10.2) == "b")  // forgets "a" (this second's forgetting)
            #expect(try await store.count() == 1)
            // "b" is past its age from 10.5 on; the next forgetting is at 11.2 or later.
            #expect(try await read("b", at: 10.7) == nil)
            #expect(try await store.count() == 1, "its row waits for the next second")
            #expect(try await create(store, UnnumberedRecord(key: "b2", idempotencyKey: "k-b"), at: 10.8, retention: retention) == "created")
            #expect(try await read("b2", at: 10.9) == "b2")
            #expect(try await read("b2", at: 21) == nil)
            #expect(try await store.count() == 0)
        }
    }
}
