import Foundation
import Testing
import TestSupport

@testable import Sandbox

/// Time-driven changes on PostgreSQL (`SandboxDueWork` and the stores' settling): two instances
/// on one database both see an Adyen Received payment fall due, and it is decided once and its
/// AUTHORISATION sent once; a payment made Received by an instance that stopped before its
/// decision is decided, and notified, by the instance started after it.
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
}
