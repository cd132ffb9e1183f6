import Foundation
import Testing
import TestSupport

@testable import Sandbox

/// The webhook dispatcher and the operation's transaction on PostgreSQL: a task started inside
/// an operation cannot use the operation's transaction (refused while it is open, and once it
/// ended, when its connection is back in the pool), while a detached one takes a connection of
/// its own; many worker rounds asked for at once (the 100 ms worker and every kept operation's
/// wake) never send more than `maxQueuedWebhookDeliveries` at once from one instance.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.isEnabled, PostgresTestDatabase.skipReason))
struct PostgresWebhookTests {
    private typealias Receiver = HoldingWebhookReceiver

    private func keep(_ store: any SandboxRecordStore<ContractRecord>, _ key: String) async throws {
        _ = try await store.create(
            idempotencyKey: nil, requiring: [], at: StoreMoment(now: Date()), sameRequest: { _ in false }, alongside: { _, _ in },
            make: { _ in ContractRecord(key: key) })
    }

    /// What `body` threw, as it describes itself; nil when it did not throw.
    private static func failure(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func aTaskStartedInsideAnOperationCannotUseItsTransaction() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "escaping_task", poolSize: 2) { storages in
            let storage = storages[0]
            let store = storage.store("escaping", of: ContractRecord.self, policy: StorePolicy())
            let (go, letGo) = AsyncStream.makeStream(of: Void.self)
            let late = try await storage.atomically {
                try await keep(store, "a")
                // While the operation runs: refused, not run beside it on its connection.
                let beside = await Task { await Self.failure { try await keep(store, "beside") } }.value
                #expect(beside?.contains(PostgresTransaction.otherTaskReason) == true, "a task beside the operation used it: \(beside ?? "no error")")
                // Run once the operation is over (it inherits the transaction all the same).
                return Task {
                    for await _ in go {}
                    return await Self.failure { try await keep(store, "late") }
                }
            }
            letGo.finish()
            let lateFailure = await late.value
            #expect(
                lateFailure?.contains(PostgresTransaction.endedReason) == true,
                "a store call after its operation ended ran on a connection back in the pool: \(lateFailure ?? "no error")")
            #expect(lateFailure?.contains("create") == true, "the failure does not name the operation: \(lateFailure ?? "")")
            #expect(try await store.count() == 1, "only the operation's own write is kept")

            // Started outside it, a task takes a connection of its own.
            let detached = try await storage.atomically { Task.detached { try await keep(store, "detached") } }
            try await detached.value
            #expect(try await store.count() == 2)
        }
    }

    @Test func manyRoundsAtOnceNeverSendMoreThanTheLimit() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "deliver_limit", poolSize: 8) { storages in
            let receiver = await Receiver.start()
            defer { receiver.release() }
            var settings = SandboxSettings()
            settings.storage = storages[0]
            settings.limits.maxQueuedWebhookDeliveries = 3
            let dispatcher = WebhookDispatcher(settings: settings)
            let queue = Receiver.queue(in: storages[0])
            // Queued by other instances: none counts against this one's deliveries under way.
            for number in 0..<12 { try await Receiver.put(Receiver.delivery("WHD_limit\(number)", to: receiver.holdURL), in: queue) }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 { group.addTask { try await dispatcher.deliverDue() } }
                try await group.waitForAll()
            }
            #expect(dispatcher.sending <= 3, "\(dispatcher.sending) deliveries claimed at once, past the limit of 3")
            #expect(await Receiver.until { receiver.held == 3 }, "held \(receiver.held)")
            receiver.release()
            // The rest go as room frees up, never more than the limit at once.
            let all = try await Receiver.until {
                try await dispatcher.deliverDue()
                return receiver.received == 12
            }
            #expect(all, "only \(receiver.received) of 12 delivered")
            #expect(receiver.most <= 3, "\(receiver.most) deliveries in flight at once, past the limit of 3")
            await dispatcher.stop()
        }
    }
}
