import Foundation
import Synchronization
import Testing

@testable import Sandbox

/// What every `SandboxRecordStore` promises, written once and run against each implementation.
@Suite struct SandboxRecordStoreContractTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let roomy = Retention(age: 3_600, capacity: 100)

    private func at(_ seconds: Double, _ retention: Retention? = nil) -> StoreMoment {
        StoreMoment(now: start.addingTimeInterval(seconds), retention: retention)
    }

    private func create(
        _ store: any SandboxRecordStore<ContractRecord>, _ record: ContractRecord, requiring claims: [String] = [],
        at moment: StoreMoment? = nil
    ) async throws -> RecordCreation<ContractRecord> {
        try await store.create(
            idempotencyKey: record.idempotencyKey, requiring: claims, at: moment ?? at(0, roomy), sameRequest: { $0.body == record.body },
            alongside: { member, new in member.note = "joined by \(new.key)" },
            make: { sequence in
                var made = record
                made.sequence = sequence
                return made
            })
    }

    private func keys(_ store: any SandboxRecordStore<ContractRecord>, at moment: StoreMoment? = nil) async throws -> [String] {
        try await store.records(at: moment).map(\.key)
    }

    // MARK: - Records

    @Test(arguments: StoreFactory.all)
    func aRecordIsFoundByItsKeyAndItsIdempotencyKey(_ factory: StoreFactory) async throws {
        let store = factory()
        let outcome = try await create(store, ContractRecord(key: "a", idempotencyKey: "k1", body: "x"))
        guard case .created(let made) = outcome else { Issue.record("not created: \(outcome)"); return }
        #expect(made.key == "a")
        #expect(try await store.record(.key("a"), at: nil)?.body == "x")
        #expect(try await store.record(.idempotencyKey("k1"), at: nil)?.key == "a")
        #expect(try await store.record(.key("b"), at: nil) == nil)
        #expect(try await store.count() == 1)
    }

    /// Providers scope keys with NUL ("client\u{0}key") and a client may send NUL or % in an
    /// idempotency key: each is kept exactly, and keys that differ only there stay apart.
    @Test(arguments: StoreFactory.all)
    func keysWithNulAndPercentAreKeptExactlyAndApart(_ factory: StoreFactory) async throws {
        let store = factory()
        let odd = ContractRecord(key: "client\u{0}a", idempotencyKey: "k\u{0}1", body: "nul \u{0} inside", claim: "grant\u{0}1")
        let look = ContractRecord(key: "client%00a", idempotencyKey: "k%001", body: "percent", claim: "grant%001")
        guard case .created = try await create(store, odd), case .created = try await create(store, look) else {
            Issue.record("both were not created")
            return
        }
        #expect(try await store.record(.key("client\u{0}a"), at: nil)?.body == "nul \u{0} inside")
        #expect(try await store.record(.key("client%00a"), at: nil)?.body == "percent")
        #expect(try await store.record(.idempotencyKey("k\u{0}1"), at: nil)?.key == "client\u{0}a")
        #expect(try await store.record(.claim("grant%001"), at: nil)?.key == "client%00a")
        guard case .replayed(let again) = try await create(store, odd) else {
            Issue.record("the same key and request did not replay")
            return
        }
        #expect(again == (try await store.record(.key("client\u{0}a"), at: nil)))
        #expect(try await store.remove("client\u{0}a", if: { _ in true })?.key == "client\u{0}a")
        #expect(try await store.count() == 1)
    }

    @Test(arguments: StoreFactory.all)
    func anUpdateChangesOneRecordAndAnUnknownKeyIsNotFound(_ factory: StoreFactory) async throws {
        let store = factory()
        _ = try await create(store, ContractRecord(key: "a"))
        let changed = try await store.update(.key("a"), at: nil) { record -> String in
            record.note = "changed"
            return record.key
        }
        #expect(changed.value == "a")
        #expect(try await store.record(.key("a"), at: nil)?.note == "changed")
        let missing = try await store.update(.key("b"), at: nil) { _ in true }
        guard case .notFound = missing else { Issue.record("\(missing)"); return }
    }

    @Test(arguments: StoreFactory.all)
    func aRecordIsRemovedOnlyWhenTheConditionHolds(_ factory: StoreFactory) async throws {
        let store = factory()
        _ = try await create(store, ContractRecord(key: "a", idempotencyKey: "k", claim: "c"))
        #expect(try await store.remove("a") { $0.note == "never" } == nil)
        #expect(try await store.remove("a") { _ in true }?.key == "a")
        #expect(try await store.count() == 0)
        // Its key and claim went with it.
        guard case .created = try await create(store, ContractRecord(key: "b", idempotencyKey: "k", claim: "c"), requiring: ["c"]) else {
            Issue.record("the key or claim outlived its record")
            return
        }
    }

    @Test(arguments: StoreFactory.all)
    func recordsAreReadInCreationOrderWhateverTheClock(_ factory: StoreFactory) async throws {
        let store = factory()
        for key in ["m", "c", "x", "a"] { _ = try await create(store, ContractRecord(key: key)) }
        #expect(try await keys(store) == ["m", "c", "x", "a"])
        // Creation numbers rise in creation order (PostgreSQL's come from one sequence for every
        // store, so they need not be consecutive).
        let numbers = try await store.records(at: nil).map(\.sequence)
        #expect(numbers.count == 4 && zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(numbers)")
        #expect(try await store.first(at: nil) { $0.key == "x" }?.sequence == numbers.dropFirst(2).first)
    }

    // MARK: - Idempotency

    @Test(arguments: StoreFactory.all)
    func theSameKeyAndBodyReplaysTheRecordWithoutMakingAnother(_ factory: StoreFactory) async throws {
        let store = factory()
        _ = try await create(store, ContractRecord(key: "a", idempotencyKey: "k", body: "x"))
        let again = try await store.create(
            idempotencyKey: "k", requiring: [], at: at(1, roomy), sameRequest: { $0.body == "x" }, alongside: { _, _ in },
            make: { _ in
                Issue.record("a replay made a record")
                return ContractRecord(key: "b")
            })
        guard case .replayed(let record) = again else { Issue.record("\(again)"); return }
        #expect(record.key == "a")
        #expect(try await store.count() == 1)
    }

    @Test(arguments: StoreFactory.all)
    func theSameKeyWithAnotherBodyIsDetected(_ factory: StoreFactory) async throws {
        let store = factory()
        _ = try await create(store, ContractRecord(key: "a", idempotencyKey: "k", body: "x"))
        let other = try await create(store, ContractRecord(key: "b", idempotencyKey: "k", body: "y"))
        guard case .keyReused(let first) = other else { Issue.record("\(other)"); return }
        #expect(first.key == "a")
        #expect(try await keys(store) == ["a"])
    }

    @Test(arguments: StoreFactory.all)
    func racingDuplicatesMakeOneRecord(_ factory: StoreFactory) async throws {
        let store = factory()
        let outcomes = try await raceOneIdempotencyKey([store], count: 32, key: "k")
        #expect(outcomes.filter { $0 == "created" }.count == 1)
        #expect(outcomes.filter { $0 == "replayed" }.count == 31)
        #expect(try await store.count() == 1)
    }

    // MARK: - Claims and groups

    @Test(arguments: StoreFactory.all)
    func aClaimIsHeldByOneRecordAtATime(_ factory: StoreFactory) async throws {
        let store = factory()
        _ = try await create(store, ContractRecord(key: "a", claim: "grant-1"), requiring: ["grant-1"])
        let second = try await create(store, ContractRecord(key: "b", claim: "grant-1"), requiring: ["grant-1"])
        guard case .claimTaken(let holder) = second else { Issue.record("\(second)"); return }
        #expect(holder.key == "a")
        #expect(try await store.record(.claim("grant-1"), at: nil)?.key == "a")

        // A change that would take it is not kept.
        _ = try await create(store, ContractRecord(key: "c"))
        let taking = try await store.update(.key("c"), at: nil) { record in record.claim = "grant-1" }
        guard case .claimTaken(let other) = taking else { Issue.record("\(taking)"); return }
        #expect(other.key == "a")
        #expect(try await store.record(.key("c"), at: nil)?.claim == nil)

        // Given up, it is free again.
        _ = try await store.update(.key("a"), at: nil) { record in record.claim = nil }
        #expect(try await store.record(.claim("grant-1"), at: nil) == nil)
        guard case .changed = try await store.update(.key("c"), at: nil, { record in record.claim = "grant-1" }) else {
            Issue.record("a released claim stayed taken")
            return
        }
        #expect(try await store.record(.claim("grant-1"), at: nil)?.key == "c")
    }

    @Test(arguments: StoreFactory.all)
    func aNewRecordChangesTheOthersOfItsGroupInTheSameUnit(_ factory: StoreFactory) async throws {
        let store = factory()
        _ = try await create(store, ContractRecord(key: "a", group: "order-1"))
        _ = try await create(store, ContractRecord(key: "other", group: "order-2"))
        _ = try await create(store, ContractRecord(key: "b", group: "order-1"))
        #expect(try await store.record(.key("a"), at: nil)?.note == "joined by b")
        #expect(try await store.record(.key("other"), at: nil)?.note == "")
        #expect(try await store.record(.key("b"), at: nil)?.note == "")
    }

    // MARK: - Retention

    @Test(arguments: StoreFactory.all)
    func pastTheAgeARecordIsForgottenWithItsKeys(_ factory: StoreFactory) async throws {
        let store = factory()
        let retention = Retention(age: 60, capacity: 100)
        for index in 0..<4 {
            _ = try await create(
                store, ContractRecord(key: "r\(index)", idempotencyKey: "k\(index)", claim: "c\(index)"), at: at(Double(index) * 10, retention))
        }
        // Without a retention nothing is forgotten, whatever the time.
        #expect(try await keys(store, at: at(1_000)) == ["r0", "r1", "r2", "r3"])
        try await store.settle(at: at(75, retention))
        #expect(try await store.count() == 2)
        #expect(try await keys(store, at: at(75, retention)) == ["r2", "r3"])
        #expect(try await store.record(.idempotencyKey("k0"), at: nil) == nil)
        #expect(try await store.record(.claim("c1"), at: nil) == nil)
        guard case .created = try await create(store, ContractRecord(key: "again", idempotencyKey: "k0"), at: at(75, retention)) else {
            Issue.record("a forgotten key still replays")
            return
        }
    }

    @Test(arguments: StoreFactory.all)
    func pastTheCapacityTheOldestGoFirst(_ factory: StoreFactory) async throws {
        let store = factory()
        let retention = Retention(age: 3_600, capacity: 3)
        for index in 0..<5 { _ = try await create(store, ContractRecord(key: "r\(index)", idempotencyKey: "k\(index)"), at: at(0, retention)) }
        #expect(try await keys(store) == ["r2", "r3", "r4"])
        #expect(try await store.count() == 3)
        #expect(try await store.record(.idempotencyKey("k1"), at: nil) == nil)
    }

    @Test(arguments: StoreFactory.all)
    func aRemovedRecordLeavesNoGapInTheOrderOfForgetting(_ factory: StoreFactory) async throws {
        let store = factory()
        let retention = Retention(age: 3_600, capacity: 2)
        _ = try await create(store, ContractRecord(key: "a"), at: at(0, retention))
        _ = try await create(store, ContractRecord(key: "b"), at: at(1, retention))
        _ = try await store.remove("a") { _ in true }
        // The same key again is a new record: the old one's place in line does not forget it.
        _ = try await create(store, ContractRecord(key: "a"), at: at(2, retention))
        _ = try await create(store, ContractRecord(key: "c"), at: at(3, retention))
        #expect(try await keys(store) == ["a", "c"])
    }

    @Test(arguments: StoreFactory.all)
    func aStoreThatForgetsSettledFirstKeepsOpenRecords(_ factory: StoreFactory) async throws {
        let store = factory(StorePolicy(forgetsSettledFirst: true))
        let retention = Retention(age: 3_600, capacity: 3)
        _ = try await create(store, ContractRecord(key: "open-0", isOpen: true), at: at(0, retention))
        _ = try await create(store, ContractRecord(key: "done-1"), at: at(0, retention))
        _ = try await create(store, ContractRecord(key: "open-2", isOpen: true), at: at(0, retention))
        _ = try await create(store, ContractRecord(key: "open-3", isOpen: true), at: at(0, retention))
        #expect(try await keys(store) == ["open-0", "open-2", "open-3"])
        // With none settled, the oldest of all.
        _ = try await create(store, ContractRecord(key: "open-4", isOpen: true), at: at(0, retention))
        #expect(try await keys(store) == ["open-2", "open-3", "open-4"])
    }

    // MARK: - Time

    @Test(arguments: StoreFactory.all)
    func openRecordsSettleAtTheMomentAndTheStoreTellsOfIt(_ factory: StoreFactory) async throws {
        let told = Mutex<[String]>([])
        let store = factory(StorePolicy(settle: ContractRecord.settle, onSettled: { records in told.withLock { $0 += records.map(\.key) } }))
        _ = try await create(store, ContractRecord(key: "due", isOpen: true, dueAt: start.addingTimeInterval(10)))
        _ = try await create(store, ContractRecord(key: "later", isOpen: true, dueAt: start.addingTimeInterval(100)))
        _ = try await create(store, ContractRecord(key: "closed", dueAt: start))

        #expect(try await store.record(.key("due"), at: nil)?.settled == false)
        #expect(try await store.record(.key("due"), at: at(5))?.settled == false)
        #expect(try await store.record(.key("due"), at: at(10))?.settled == true)
        #expect(try await store.record(.key("later"), at: nil)?.settled == false)
        #expect(try await store.record(.key("closed"), at: at(1_000))?.settled == false)
        #expect(told.withLock { $0 } == ["due", "later"])
    }
}
