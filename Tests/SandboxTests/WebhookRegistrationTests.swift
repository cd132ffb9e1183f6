import Foundation
import ProviderClients
import Sandbox
import Testing
import TestSupport

/// `/sandbox/webhooks` on a shared sandbox: runs that never unregistered must not lock out new ones.
@Suite struct WebhookRegistrationTests {
    @Test func aFullListDropsTheOldestReceiverRatherThanRefusingTheNewOne() async throws {
        var limits = SandboxLimits()
        limits.maxWebhookReceivers = 3
        try await SandboxHarness.with(limits: limits) { harness in
            var ids: [String] = []
            for port in 9001...9004 {
                let response = try await CheckoutBinary.send(
                    "POST", harness.baseURL + "/sandbox/webhooks", json: #"{"url": "http://127.0.0.1:\#(port)/"}"#)
                #expect(response.status == 201)
                let registered = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                ids.append(try #require(registered["id"] as? String))
            }
            let listed = try #require(
                try JSONSerialization.jsonObject(with: try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/webhooks")) as? [String: Any])
            let receivers = try #require(listed["receivers"] as? [[String: Any]])
            #expect(receivers.compactMap { $0["id"] as? String } == Array(ids.suffix(3)))
            #expect(try await CheckoutBinary.send("DELETE", harness.baseURL + "/sandbox/webhooks/\(ids[0])").status == 404)
            #expect(try await CheckoutBinary.send("DELETE", harness.baseURL + "/sandbox/webhooks/\(ids[3])").status == 204)
        }
    }
}
