import Foundation
import Testing
import TestSupport

/// `checkout sandbox --fault SPEC`: standing faults, owned by the sandbox.
@Suite struct SandboxCommandTests {
    @Test func aBadFaultSpecIsAUsageError() async throws {
        let outcome = try await CheckoutBinary.run(["sandbox", "--port", "0", "--fault", "POST /x teapot"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("not a fault kind"), "\(outcome.stderr)")
    }

    @Test func standingFaultsAreListedAsTheSandboxes() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(
            ["sandbox", "--port", "0", "--fault", "POST /customer-request 503*2", "--fault", "GET /v2/ reset"])
        defer { server.signal(SIGTERM) }
        let listing = try JSONSerialization.jsonObject(with: try await CheckoutBinary.fetch(baseURL + "/sandbox/faults")) as? [String: Any]
        let faults = try #require(listing?["faults"] as? [[String: Any]])
        #expect(faults.map { $0["owner"] as? String } == ["sandbox", "sandbox"])
        #expect(faults.map { $0["remaining"] as? Int } == [2, 1])
        // The banner follows the base URL on stderr.
        let deadline = ContinuousClock.now + .seconds(10)
        while !server.stderr.contains("Ctrl-C"), server.status == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.stderr.contains("2 standing faults added"), "\(server.stderr)")
    }
}
