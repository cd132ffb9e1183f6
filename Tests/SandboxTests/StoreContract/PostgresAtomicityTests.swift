import Foundation
import ProviderClients
import Synchronization
import Testing
import TestSupport

@testable import Sandbox

/// One transaction per provider operation on PostgreSQL (`SandboxStorage.atomically`): a store
/// failure between two writes keeps neither, a provider's own refusal keeps what it wrote (as
/// memory does), what the operation sends out waits for the commit, racing operations across two
/// instances stay correct (deadlocks retried whole, a small pool never waits on itself), and an
/// Adyen payment whose operation failed half-way leaves no payment, its idempotency key free
/// again once the in-progress lease runs out.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.isEnabled, PostgresTestDatabase.skipReason))
struct PostgresAtomicityTests {
    private let moment = StoreMoment(now: Date(timeIntervalSince1970: 1_800_000_000))

    private struct Refused: Error {}

    private func keep(_ store: any SandboxRecordStore<ContractRecord>, _ key: String) async throws {
        _ = try await store.create(
            idempotencyKey: nil, requiring: [], at: moment, sameRequest: { _ in false }, alongside: { _, _ in },
            make: { _ in ContractRecord(key: key) })
    }

    @Test func aFaultBetweenTwoWritesKeepsNeither() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "atomic_fault", poolSize: 2) { storages in
            let storage = storages[0]
            let first = storage.store("first", of: ContractRecord.self, policy: StorePolicy())
            let second = storage.store("second", of: ContractRecord.self, policy: StorePolicy())
            storage.injectFaults { operation, store in operation == "create" && store == "second" }
            let sent = Mutex<[String]>([])
            await #expect(throws: SandboxStoreUnavailable.self) {
                try await storage.atomically {
                    try await keep(first, "a")
                    SandboxCommit.afterwards({ sent.withLock { $0.append("sent") } }, otherwise: { sent.withLock { $0.append("given back") } })
                    try await keep(second, "b")
                }
            }
            #expect(try await first.count() == 0, "the first write of a failed operation was kept")
            #expect(try await second.count() == 0)
            #expect(sent.withLock { $0 } == ["given back"], "what a rolled-back operation queued to send went out")

            // A body that catches the failure and goes on still keeps nothing, and fails.
            await #expect(throws: SandboxStoreUnavailable.self) {
                try await storage.atomically {
                    try await keep(first, "a")
                    try? await keep(second, "b")
                }
            }
            #expect(try await first.count() == 0, "an operation past a swallowed store failure was kept")

            storage.injectFaults(nil)
            try await storage.atomically {
                try await keep(first, "a")
                SandboxCommit.afterwards { sent.withLock { $0.append("sent") } }
                #expect(sent.withLock { $0 } == ["given back"], "sent before the commit")
                try await keep(second, "b")
            }
            #expect(try await first.count() == 1)
            #expect(try await second.count() == 1)
            #expect(sent.withLock { $0 } == ["given back", "sent"])
        }
    }

    @Test func aProviderRefusalKeepsWhatItWroteAndIsRethrownAsItIs() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "atomic_refusal", poolSize: 2) { storages in
            let storage = storages[0]
            let store = storage.store("kept", of: ContractRecord.self, policy: StorePolicy())
            await #expect(throws: Refused.self) {
                try await storage.atomically {
                    try await keep(store, "a")
                    throw Refused()
                }
            }
            #expect(try await store.count() == 1)
            // Reads inside the transaction see its own writes; outside, nothing until the commit.
            try await storage.atomically {
                try await keep(store, "b")
                #expect(try await store.record(.key("b"), at: nil) != nil)
            }
        }
    }

    /// Operations through two instances, half writing the two stores in one order and half in the
    /// other (deadlocks, retried whole), on pools of two connections (a body never takes a second).
    @Test func racingOperationsAcrossTwoInstancesEachKeepBothWritesOnce() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "atomic_race", poolSize: 2) { storages in
            let counters = storages.map { $0.store("counters", of: ContractRecord.self, policy: StorePolicy()) }
            let items = storages.map { $0.store("items", of: ContractRecord.self, policy: StorePolicy()) }
            try await keep(counters[0], "total")
            // Each deadlock costs the server's deadlock_timeout (1 s) to detect: a few suffice.
            let count = 8
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 0..<count {
                    group.addTask {
                        let instance = number % 2
                        try await storages[instance].atomically {
                            func count() async throws {
                                _ = try await counters[instance].update(.key("total"), at: nil) { record in
                                    record.sequence += 1
                                }
                            }
                            if number % 4 < 2 {
                                try await count()
                                try await keep(items[instance], "item-\(number)")
                            } else {
                                try await keep(items[instance], "item-\(number)")
                                try await count()
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await counters[1].record(.key("total"), at: nil)?.sequence == count)
            #expect(try await items[0].count() == count)
        }
    }

    /// Adyen's POST /payments keeps the payment and the key's answer in one transaction: a failure
    /// keeping the answer keeps no payment (and frees the grant) and sends no AUTHORISATION (nor
    /// logs one); the key is in progress until its lease runs out, then the same request pays, once.
    @Test func anAdyenPaymentThatFailedHalfWayKeepsNothingAndItsKeyIsFreedByTheLease() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "atomic_adyen", poolSize: 4) { storages in
            let storage = storages[0]
            let clock = ManualClock(Date())
            var settings = SandboxSettings(now: clock.clock)
            settings.storage = storage
            let receiver = try AdyenWebhookReceiver()
            defer { receiver.close() }
            try await SandboxServer.withRunning(settings) { running in
                let sandbox = AdyenTestSandbox(sandbox: running)
                try await sandbox.registerReceiver(receiver)
                let payments = storage.store("adyen.payments", of: AdyenPaymentStore.Payment.self, policy: StorePolicy())
                let grant = try await sandbox.grant(2_500)
                let body = AdyenTestSandbox.payment(2_500, ["grantId": grant])

                storage.injectFaults { operation, store in operation == "update" && store == "adyen.idempotency" }
                let failed = try? await sandbox.adyen("POST", "/v71/payments", body, idempotencyKey: "pay-once")
                #expect(failed == nil || failed?.status == 503, "a payment whose answer could not be kept answered \(failed?.status ?? 0)")
                #expect(try await payments.count() == 0, "a payment was kept without its idempotent answer")
                // Its AUTHORISATION was never set going (it waits for a commit that did not come).
                #expect(running.webhooks.pending == 0, "a rolled-back payment's webhook is under way")
                #expect(try await running.webhooks.log.all.isEmpty, "a rolled-back payment's webhook was logged")
                storage.injectFaults(nil)

                let early = try await sandbox.adyen("POST", "/v71/payments", body, idempotencyKey: "pay-once")
                #expect(early.status == 409, "within the lease the key is still in progress")

                clock.advance(by: AdyenIdempotencyStore.inProgressLease + 1)
                let paid = try await sandbox.adyen("POST", "/v71/payments", body, idempotencyKey: "pay-once")
                #expect(paid.status == 200)
                #expect(try AdyenTestSandbox.object(paid)["resultCode"] as? String == "Authorised")
                let again = try await sandbox.adyen("POST", "/v71/payments", body, idempotencyKey: "pay-once")
                #expect(again.body == paid.body, "the same key and request replays")
                #expect(try await payments.count() == 1, "one payment, moved once")
                let delivered = await receiver.wait { $0.count >= 1 }
                #expect(delivered.count == 1, "one AUTHORISATION, for the payment that was kept")
            }
        }
    }
}

/// The in-progress lease on memory: an Adyen key whose request never answered is taken over once
/// the lease runs out, not before, and by one request only.
@Suite struct AdyenIdempotencyLeaseTests {
    @Test func aKeyInProgressPastItsLeaseIsTakenOverOnce() async throws {
        let store = AdyenIdempotencyStore(storage: MemoryStorage())
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let fingerprint = Data("the request".utf8)
        func begin(_ seconds: TimeInterval) async throws -> String {
            switch try await store.begin(scope: "api", key: "k", fingerprint: fingerprint, now: start.addingTimeInterval(seconds), limits: SandboxLimits()) {
            case .fresh: "fresh"
            case .inProgress: "inProgress"
            case .replay: "replay"
            case .mismatch: "mismatch"
            }
        }
        #expect(try await begin(0) == "fresh")
        #expect(try await begin(AdyenIdempotencyStore.inProgressLease - 1) == "inProgress")
        #expect(try await begin(AdyenIdempotencyStore.inProgressLease) == "fresh")
        // The taker holds a new lease.
        #expect(try await begin(AdyenIdempotencyStore.inProgressLease + 1) == "inProgress")
        try await store.finish(scope: "api", key: "k", status: 200, body: Data("{}".utf8))
        #expect(try await begin(10 * AdyenIdempotencyStore.inProgressLease) == "replay")
    }
}
