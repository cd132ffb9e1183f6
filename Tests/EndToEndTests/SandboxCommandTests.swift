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

/// `checkout sandbox`'s bounds: flags checked against their ranges, used when in range.
@Suite struct SandboxBoundsFlagTests {
    @Test(arguments: [
        (["--max-requests", "0"], "--max-requests must be a whole number from 1 to 1000000, got 0"),
        (["--max-body-bytes", "99999999"], "--max-body-bytes must be a whole number from 1024 to 2097152"),
        (["--max-faults", "0"], "--max-faults"),
        (["--max-connections", "100000"], "--max-connections"),
        (["--idle-timeout", "0"], "--idle-timeout must be a number of seconds from"),
        (["--request-timeout", "nan"], "--request-timeout"),
        (["--request-retention", "-5"], "--request-retention"),
        (["--max-faults", "1", "--fault", "GET /x 503", "--fault", "GET /y 503"], "more than --max-faults 1"),
        (["--request-retention", "60", "--request-lifetime", "120"], "must be at least --request-lifetime"),
    ])
    func anOutOfRangeBoundIsAUsageError(arguments: [String], mentions: String) async throws {
        let outcome = try await CheckoutBinary.run(["sandbox", "--port", "0"] + arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains(mentions), "\(outcome.stderr)")
    }

    @Test func theHelpNamesEachBoundAndItsRange() async throws {
        let outcome = try await CheckoutBinary.run(["sandbox", "--help"])
        for flag in ["--max-requests", "--request-retention", "--max-body-bytes", "--max-faults", "--max-connections", "--idle-timeout", "--request-timeout"] {
            #expect(outcome.stdout.contains(flag), "\(flag) missing from help")
        }
        #expect(outcome.stdout.contains("From 1 to 10000"))
    }

    @Test func aSandboxWithSmallBoundsAppliesThem() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0", "--max-faults", "1", "--max-body-bytes", "1024"])
        defer { server.signal(SIGTERM) }
        let add = { (spec: String) in try await CheckoutBinary.send("POST", baseURL + "/sandbox/faults", json: #"{"fault": "\#(spec)"}"#).status }
        #expect(try await add("GET /x 503") == 201)
        #expect(try await add("GET /y 503") == 409)
        #expect(try await CheckoutBinary.send("POST", baseURL + "/sandbox/faults", json: String(repeating: "x", count: 2_000)).status == 413)
    }
}
