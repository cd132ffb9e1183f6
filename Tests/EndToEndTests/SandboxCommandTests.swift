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

/// `checkout sandbox --store`: the URL checked when parsed (naming where it came from and the
/// form it must take), its password never printed, and a store this build cannot use a clear
/// error with its own status.
@Suite struct SandboxStoreFlagTests {
    @Test(arguments: [
        (["--store", "mysql://alice@db:3306/x"], "--store: invalid PostgreSQL URL: scheme: \"mysql\" is not postgres://"),
        (["--store", "postgres://alice:s3cret@db.example:0/sandbox"], "--store: invalid PostgreSQL URL: port: 0 is not between 1 and 65535"),
        (["--store", "postgres://alice:s3cret@db.example:5432/sandbox?sslmode=always"], "sslmode: \"always\" is not one of disable, prefer, require"),
        (["--store", "postgres://db:5432/x"], "user: missing"),
        (["--store", "postgres://alice@db:5432/x", "--store-pool-size", "0"], "--store-pool-size must be a whole number from 1 to 256, got 0"),
        (["--reset"], "--reset empties a --store database"),
        (["--reset", "--yes"], "--reset empties a --store database"),
    ])
    func aStoreTheSandboxCannotTakeIsAUsageError(arguments: [String], mentions: String) async throws {
        let outcome = try await CheckoutBinary.run(["sandbox", "--port", "0"] + arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains(mentions), "\(outcome.stderr)")
        #expect(!(outcome.stdout + outcome.stderr).contains("s3cret"))
    }

    @Test func theEnvironmentsStoreIsCheckedAndNamed() async throws {
        let outcome = try await CheckoutBinary.run(
            ["sandbox", "--port", "0"], environment: ["CHECKOUT_SANDBOX_STORE": "postgres://alice:s3cret@db.example:5432/"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("CHECKOUT_SANDBOX_STORE: invalid PostgreSQL URL: database: missing"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("s3cret"))
    }

    @Test func anUnreachableStoreIsExit69NamingItWithoutThePassword() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let outcome = try await CheckoutBinary.run(
            ["sandbox", "--port", "0", "--store", "postgres://alice:s3cret@127.0.0.1:1/sandbox?sslmode=disable", "--store-pool-size", "4"])
        #expect(outcome.status == 69)
        #expect(outcome.stderr.contains("postgres://alice:***@127.0.0.1:1/sandbox?sslmode=disable (pool 4)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("connection refused"), "\(outcome.stderr)")
        #expect(!(outcome.stdout + outcome.stderr).contains("s3cret"))
    }

    @Test func aResetThatIsNotConfirmedStartsNothing() async throws {
        // stdin is closed: no one answers the question, which is a no.
        let outcome = try await CheckoutBinary.run(["sandbox", "--port", "0", "--store", "postgres://alice@127.0.0.1:5432/sandbox", "--reset"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("Empty every record of the sandbox in postgres://alice@127.0.0.1:5432/sandbox"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("not reset, not started"), "\(outcome.stderr)")
    }

    @Test func aProfilesStoreIsTaken() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("checkout"), withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("checkout/config.yaml")
        try "profiles:\n  team:\n    sandbox_store: postgres://alice:s3cret@127.0.0.1:5432/team\n".write(to: config, atomically: true, encoding: .utf8)
        let outcome = try await CheckoutBinary.run(
            ["sandbox", "--port", "0", "--profile", "team"], environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("postgres://alice:***@127.0.0.1:5432/team"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("s3cret"))
    }
}

/// A CHECKOUT_PROFILE set for checkouts does not stop `checkout sandbox` when its profile cannot
/// be read: the sandbox starts in memory, as it always did, and says why it passed it over.
@Suite struct SandboxStoreProfileFallbackTests {
    @Test func anUnreadableEnvironmentProfileIsPassedOver() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-config-\(UUID().uuidString)")
        let outcome = try await CheckoutBinary.run(
            ["sandbox", "--port", "0", "--reset"], environment: ["XDG_CONFIG_HOME": folder.path, "CHECKOUT_PROFILE": "team"])
        // --reset without a store is refused: the profile was passed over, not an error of its own.
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--reset empties a --store database"), "\(outcome.stderr)")
    }

    @Test func anUnreadableFlagProfileIsAUsageError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-config-\(UUID().uuidString)")
        let outcome = try await CheckoutBinary.run(["sandbox", "--port", "0", "--profile", "team"], environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("there is no config file"), "\(outcome.stderr)")
    }
}
