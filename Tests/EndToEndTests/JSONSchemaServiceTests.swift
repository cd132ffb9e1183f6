import Foundation
import ProviderWire
import Testing
import TestSupport

/// The long-running and stateful commands' --json (`listen`, `offline`) from the real binary,
/// checked against Schemas/.
@Suite struct JSONSchemaServiceTests {
    private static let key = "00FF00FF00FF00FF"

    private func notification(signedWith hex: String) throws -> String { try AdyenTestNotification.json(signedWith: hex) }

    /// `listen --json`: the address, then a verified and a forged webhook; SIGTERM ends it with 143.
    @Test func listenPrintsItsAddressAndEachWebhookAsJSON() async throws {
        // Not deferred: the child is killed when the test ends early, and signalled once here.
        let (listener, first) = try await CheckoutBinary.start(["listen", "--port", "0", "--json", "--adyen-hmac-key", Self.key])
        let address = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
        let url = try #require(address?["listening"] as? String, "the first line: \(first)")
        #expect(try await CheckoutBinary.send("POST", url, json: try notification(signedWith: Self.key)).status == 200)
        #expect(try await CheckoutBinary.send("POST", url, json: try notification(signedWith: "0102")).status == 401)
        let deadline = ContinuousClock.now + .seconds(10)
        while listener.stdout.split(separator: "\n").count < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        listener.signal(SIGTERM)
        #expect(await listener.exit(timeout: 10) == 143)
        let objects = try SchemaValidator.objects(listener.stdout)
        #expect(objects.compactMap { $0["signature_valid"] as? Bool } == [true, false], "\(listener.stdout)")
        try await SchemaValidator.expectValid(listener.stdout, against: "listen.schema.json")
    }

    /// Two card payments taken offline (Square unreachable), listed while queued (exit 1), then
    /// uploaded to a sandbox that takes one and declines the other (exit 0: nothing left queued).
    @Test func offlineListsQueuedUploadedAndDeclinedPayments() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("schema-offline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let environment = ["TERMINALCHECKOUT_DATA_DIR": data]
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        for card in ["ok", "declined"] {
            // Nothing listens on port 9: the payment never leaves this machine.
            let taken = try await CheckoutBinary.run(
                ["run", "--provider", "square", "--card", card, "--tip", "0", "--offline-capable", "--retry-base-ms", "5",
                 "--square-url", "http://127.0.0.1:9", "--square-access-token", "EAAA-schema-token", "--json"],
                environment: environment)
            #expect(taken.status == 0, "\(taken.stdout)\(taken.stderr)")
            try await SchemaValidator.expectValid(taken.stdout, against: "run.schema.json")
        }

        let queued = try await CheckoutBinary.run(["offline", "--json"], environment: environment)
        #expect(queued.status == 1, "\(queued.stdout)\(queued.stderr)")
        #expect(try SchemaValidator.objects(queued.stdout).map { $0["state"] as? String } == ["queued", "queued"])
        try await SchemaValidator.expectValid(queued.stdout, against: "offline.schema.json")

        let uploaded = try await CheckoutBinary.run(["offline", "--upload", "--sandbox-url", baseURL, "--json"], environment: environment)
        #expect(uploaded.status == 0, "\(uploaded.stdout)\(uploaded.stderr)")
        #expect(Set(try SchemaValidator.objects(uploaded.stdout).compactMap { $0["state"] as? String }) == ["uploaded", "declined"], "\(uploaded.stdout)")
        try await SchemaValidator.expectValid(uploaded.stdout, against: "offline.schema.json")
    }
}
