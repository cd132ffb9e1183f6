import Foundation
import Testing
import TestSupport

/// A run's faults belong to it: on a shared sandbox what is left of them goes when the run
/// ends, also when it is stopped by a signal; the sandbox's standing faults stay.
@Suite struct RunFaultOwnershipTests {
    private func owners(_ baseURL: String) async throws -> [String] {
        let listing = try JSONSerialization.jsonObject(with: try await CheckoutBinary.fetch(baseURL + "/sandbox/faults")) as? [String: Any]
        return (listing?["faults"] as? [[String: Any]] ?? []).compactMap { $0["owner"] as? String }
    }

    @Test func leftoverFaultsGoWithTheRunAndTheNextRunIsUnaffected() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0", "--fault", "POST /sandbox/nowhere 500"])
        defer { server.signal(SIGTERM) }
        let failing = try await CheckoutBinary.run(["run", "--sandbox-url", baseURL, "--fault", "GET /customer-request 503*50"])
        #expect(failing.status == 2)
        #expect(failing.states.last == "apiError")
        #expect(try await owners(baseURL) == ["sandbox"])
        let next = try await CheckoutBinary.run(["run", "--sandbox-url", baseURL])
        #expect(next.status == 0, "\(next.stderr)")
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func aStoppedRunStillTakesItsFaultsAway(signal: Int32) async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let run = try ChildProcess([CheckoutBinary.url.path, "run", "--sandbox-url", baseURL, "--customer", "none", "--fault", "GET /elsewhere 500*3"])
        let deadline = ContinuousClock.now + .seconds(15)
        while !run.stdout.contains("state: polling"), run.status == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let during = try await owners(baseURL)
        #expect(during.count == 1 && during[0].hasPrefix("run-"), "\(during)")
        run.signal(signal)
        #expect(await run.exit(timeout: 10) == 128 + signal)
        #expect(try await owners(baseURL).isEmpty)
    }
}
