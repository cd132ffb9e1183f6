import Foundation
import Testing
import TestSupport

@testable import Sandbox

/// Time-driven changes and webhook deliveries on PostgreSQL (`SandboxDueWork`, the stores'
/// settling and the store-kept delivery queue): two instances on one database both see an Adyen
/// Received payment fall due, and it is decided once and its AUTHORISATION sent once; a payment
/// made Received by an instance that stopped before its decision is decided, and notified, by the
/// instance started after it; payments through two instances (both workers claiming) each reach
/// the receiver once; a delivery claimed by an instance that died is delivered by another once
/// its lease runs out.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.isEnabled, PostgresTestDatabase.skipReason))
struct PostgresDueWorkTests {
    private func settings(_ storage: PostgresStorage, delay: Double = 0.3) -> SandboxSettings {
        var settings = SandboxSettings()
        settings.adyen.asyncResultDelay = delay
        settings.webhookRetryDelay = 0.05
        settings.storage = storage
        return settings
    }

    private func authorisations(of psp: String, in deliveries: [AdyenWebhookReceiver.Delivery]) -> Int {
        deliveries.filter {
            let text = String(decoding: $0.body, as: UTF8.self)
            return text.contains("\"AUTHORISATION\"") && text.contains(psp)
        }.count
    }

    /// Polls `condition` until it holds or `timeout` seconds pass.
    private func eventually(timeout: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    @Test func aReceivedPaymentSeenDueByTwoInstancesIsDecidedAndNotifiedOnce() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "due_once", poolSize: 4) { storages in
            let receiver = try AdyenWebhookReceiver()
            defer { receiver.close() }
            try await SandboxServer.withRunning(settings(storages[0])) { first in
                try await SandboxServer.withRunning(settings(storages[1])) { second in
                    let sandbox = AdyenTestSandbox(sandbox: first)
                    try await sandbox.registerReceiver(receiver)
                    let paid = try await sandbox.pay(AdyenMagic.receivedThenAuthorisedValue)
                    #expect(paid["resultCode"] as? String == "Received")
                    let psp = try #require(paid["pspReference"] as? String)
                    let delivered = await receiver.wait { authorisations(of: psp, in: $0) >= 1 }
                    #expect(authorisations(of: psp, in: delivered) >= 1, "no AUTHORISATION for the Received payment")
                    // Once decided its row is closed: neither worker can decide it again. Every
                    // delivery either started has ended when both dispatchers are idle.
                    #expect(await eventually { first.webhooks.pending == 0 && second.webhooks.pending == 0 })
                    #expect(authorisations(of: psp, in: receiver.received) == 1, "the decision was notified more than once")
                }
            }
        }
    }

    @Test func aDecisionDueAfterItsInstanceStoppedIsMadeByTheNextOne() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "due_restart", poolSize: 4) { storages in
            let receiver = try AdyenWebhookReceiver()
            defer { receiver.close() }
            // The first instance takes the payment and stops before its decision is due (2 s).
            let psp = try await SandboxServer.withRunning(settings(storages[0], delay: 2)) { first in
                let sandbox = AdyenTestSandbox(sandbox: first)
                try await sandbox.registerReceiver(receiver)
                let paid = try await sandbox.pay(AdyenMagic.receivedThenAuthorisedValue)
                #expect(paid["resultCode"] as? String == "Received")
                return try #require(paid["pspReference"] as? String)
            }
            try await SandboxServer.withRunning(settings(storages[1], delay: 2)) { next in
                let delivered = await receiver.wait { authorisations(of: psp, in: $0) >= 1 }
                #expect(authorisations(of: psp, in: delivered) == 1, "the decision due after a restart was not notified")
                #expect(await eventually { next.webhooks.pending == 0 })
            }
        }
    }

    @Test func deliveriesQueuedThroughTwoInstancesAreEachMadeOnce() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "deliver_once", poolSize: 4) { storages in
            let receiver = try AdyenWebhookReceiver()
            defer { receiver.close() }
            try await SandboxServer.withRunning(settings(storages[0])) { first in
                try await SandboxServer.withRunning(settings(storages[1])) { second in
                    let sandboxes = [AdyenTestSandbox(sandbox: first), AdyenTestSandbox(sandbox: second)]
                    try await sandboxes[0].registerReceiver(receiver)
                    var psps: [String] = []
                    for number in 0..<6 {
                        let paid = try await sandboxes[number % 2].pay(1_000 + number)
                        psps.append(try #require(paid["pspReference"] as? String))
                    }
                    _ = await receiver.wait { deliveries in psps.allSatisfy { authorisations(of: $0, in: deliveries) >= 1 } }
                    #expect(await eventually { first.webhooks.pending == 0 && second.webhooks.pending == 0 })
                    for psp in psps {
                        #expect(authorisations(of: psp, in: receiver.received) == 1, "payment \(psp)'s AUTHORISATION was not made exactly once")
                    }
                }
            }
        }
    }

    @Test func aDeliveryClaimedByAnInstanceThatDiedIsMadeOnceItsLeaseRunsOut() async throws {
        try await PostgresTestDatabase.withInstances(1, purpose: "deliver_lease", poolSize: 4) { storages in
            let receiver = try AdyenWebhookReceiver()
            defer { receiver.close() }
            // As a killed instance leaves it: claimed, its lease running for another half second.
            let queue = storages[0].store(
                "webhooks.queue", of: QueuedWebhookDelivery.self, policy: StorePolicy(settlesAt: { $0.availableAt }))
            let claimedAt = Date()
            let orphan = QueuedWebhookDelivery(
                id: "WHD_orphaned01", event: "AUTHORISATION", receiverID: "WHR_gone", url: receiver.url,
                body: Data(#"{"eventCode":"AUTHORISATION","pspReference":"ORPHAN0000000001"}"#.utf8), headers: [], acceptance: .any2xx,
                report: nil, attempts: 0, dueAt: claimedAt, claimedUntil: claimedAt.addingTimeInterval(0.5))
            _ = try await queue.create(
                idempotencyKey: nil, requiring: [], at: StoreMoment(now: claimedAt), sameRequest: { _ in false }, alongside: { _, _ in },
                make: { _ in orphan })
            try await SandboxServer.withRunning(settings(storages[0])) { _ in
                let delivered = await receiver.wait { authorisations(of: "ORPHAN0000000001", in: $0) >= 1 }
                #expect(authorisations(of: "ORPHAN0000000001", in: delivered) == 1, "the orphaned delivery was not made")
                let emptied = try await eventually { try await queue.count() == 0 }
                #expect(emptied, "the delivered one stays queued")
            }
        }
    }
}
