import Foundation
import ProviderWire
import Sandbox
import Testing

/// `/sandbox/webhooks`: registration, signed delivery, retries.
@Suite struct AdyenWebhookTests {
    typealias Fixture = AdyenTestSandbox

    @Test func registeredReceiversGetSignedNotifications() async throws {
        let key = "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF"
        try await Fixture.with(hmacKey: key) { sandbox in
            let receiver = try AdyenWebhookReceiver()
            let registered = try await sandbox.control("POST", "/sandbox/webhooks", ["url": receiver.url])
            #expect(registered.status == 201)
            let id = try #require(try Fixture.object(registered)["id"] as? String)
            let listed = try Fixture.object(try await sandbox.control("GET", "/sandbox/webhooks"))
            #expect((listed["receivers"] as? [[String: Any]])?.first?["url"] as? String == receiver.url)
            #expect(try await sandbox.control("POST", "/sandbox/webhooks", ["url": "ftp://nope"]).status == 400)

            let psp = try #require(try await sandbox.pay(1500)["pspReference"] as? String)
            let deliveries = await receiver.wait { !$0.isEmpty }
            let notification = try #require(deliveries.first).body
            let decoded = try JSONDecoder().decode(AdyenNotification.self, from: notification)
            #expect(decoded.live == "false")
            let item = try #require(decoded.items.first)
            #expect(item.pspReference == psp && item.eventCode == "AUTHORISATION" && item.success == "true")
            #expect(AdyenHMAC.isValid(item, key: AdyenHMAC.keyBytes(hex: key)!))
            #expect(!AdyenHMAC.isValid(item, key: AdyenHMAC.keyBytes(hex: AdyenHMAC.sandboxKey)!))

            #expect(try await sandbox.control("DELETE", "/sandbox/webhooks/\(id)").status == 204)
            #expect(try await sandbox.control("DELETE", "/sandbox/webhooks/\(id)").status == 404)
        }
    }

    @Test func aFailedDeliveryIsRetried() async throws {
        try await Fixture.with { sandbox in
            let receiver = try AdyenWebhookReceiver(statuses: [500, 503])
            try await sandbox.registerReceiver(receiver)
            _ = try await sandbox.pay(1600)
            let deliveries = await receiver.wait { !$0.isEmpty }
            #expect(deliveries.count == 1)
            #expect(receiver.requestCount == 3)
            // The receiver has the delivery a moment before the sandbox has read its answer and
            // logged it: the log is read until it says so (a starved machine widens that moment).
            var entry: [String: Any] = [:]
            let deadline = Date().addingTimeInterval(30)
            repeat {
                let log = try Fixture.object(try await sandbox.control("GET", "/sandbox/webhooks/deliveries"))
                entry = try #require((log["deliveries"] as? [[String: Any]])?.first)
                if entry["outcome"] as? String == "delivered" { break }
                try await Task.sleep(for: .milliseconds(20))
            } while Date() < deadline
            #expect(entry["outcome"] as? String == "delivered" && entry["attempts"] as? Int == 3)
        }
    }

    @Test func aReceiverThatNeverAnswers2xxIsGivenUpAfterTheLastAttempt() async throws {
        try await Fixture.with(webhookAttempts: 2) { sandbox in
            let receiver = try AdyenWebhookReceiver(statuses: [500, 500, 500])
            try await sandbox.registerReceiver(receiver)
            _ = try await sandbox.pay(1700)
            let deadline = Date().addingTimeInterval(10)
            while sandbox.sandbox.webhooks.pending > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(receiver.requestCount == 2)
            #expect(try await sandbox.sandbox.webhooks.log.all.first?.outcome == .failed)
        }
    }
}
