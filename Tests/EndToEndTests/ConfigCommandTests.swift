import Foundation
import Testing
import TestSupport

/// `checkout config` and `--profile` as a user meets them, on the real binary with its own
/// XDG_CONFIG_HOME: init refuses to overwrite, show redacts, check resolves credentials and
/// calls a "real" provider (a `checkout sandbox` standing in for Square), and a profile runs a
/// checkout whose credentials came from a command.
@Suite struct ConfigCommandTests {
    let folder: URL
    var environment: [String: String] { ["XDG_CONFIG_HOME": folder.path, "CHECKOUT_PROFILE": ""] }
    var configPath: String { folder.path + "/checkout/config.yaml" }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func write(_ text: String, mode: Int = 0o600) throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/checkout", withIntermediateDirectories: true)
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: configPath)
    }

    @Test func initWritesAPrivateExampleAndRefusesToOverwriteIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await CheckoutBinary.run(["config", "init"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: configPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try "# mine\nprofiles: {}\n".write(toFile: configPath, atomically: false, encoding: .utf8)
        let second = try await CheckoutBinary.run(["config", "init"], environment: environment)
        #expect(second.status == 1)
        #expect(second.stderr.contains("already exists"), "\(second.stderr)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == "# mine\nprofiles: {}\n")
    }

    @Test func listAndShowNameSourcesButNeverTheSecret() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("""
            profiles:
              sq:
                description: Square sandbox
                providers: [square]
                options: { square-url: "https://connect.squareupsandbox.com" }
                credentials:
                  square-access-token: { value: EAAAinlineSecretToken }
            """)
        let list = try await CheckoutBinary.run(["config", "list"], environment: environment)
        #expect(list.stdout.contains("sq  square · Square sandbox"), "\(list.stdout)")
        let show = try await CheckoutBinary.run(["config", "show", "sq"], environment: environment)
        #expect(show.status == 0)
        #expect(show.stdout.contains("--square-access-token from inline [REDACTED, 21 characters]"), "\(show.stdout)")
        let json = try await CheckoutBinary.run(["config", "show", "sq", "--json"], environment: environment)
        for output in [list.stdout, show.stdout, json.stdout] { #expect(!output.contains("EAAAinlineSecretToken")) }
        try await SchemaValidator.expectValid(json.stdout, against: "config-show.schema.json", lines: false)
        let listJSON = try await CheckoutBinary.run(["config", "list", "--json"], environment: environment)
        try await SchemaValidator.expectValid(listJSON.stdout, against: "config-list.schema.json", lines: false)

        let missing = try await CheckoutBinary.run(["config", "show", "nope"], environment: environment)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("there is no profile \"nope\""), "\(missing.stderr)")
    }

    @Test func aSecretInAFileOthersCanReadIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("profiles:\n  sq:\n    credentials:\n      square-access-token: EAAAinlineSecretToken\n", mode: 0o644)
        let outcome = try await CheckoutBinary.run(["run", "--profile", "sq", "--provider", "square"], environment: environment)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("chmod 600"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("EAAAinlineSecretToken"))
    }

    @Test func checkResolvesCredentialsAndCallsTheProviderShowingTheExchangeRedacted() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        try write("""
            profiles:
              good:
                providers: [square]
                options: { square-url: "\(baseURL)" }
                credentials:
                  square-access-token: { command: "printf EAAAfromACommand" }
              bad:
                providers: [square]
                options: { square-url: "\(baseURL)" }
                credentials:
                  square-access-token: { env: CONFIG_TEST_TOKEN }
              unset:
                providers: [square]
                credentials:
                  square-access-token: { env: CONFIG_TEST_UNSET }
            """)
        let good = try await CheckoutBinary.run(["config", "check", "good"], environment: environment)
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("✓ --square-access-token from command `printf EAAAfromACommand`: resolved (16 characters)"), "\(good.stdout)")
        #expect(good.stdout.contains("GET \(baseURL)/v2/payments?sort_order=DESC&limit=1 → HTTP 200"), "\(good.stdout)")
        #expect(good.stdout.contains("> Authorization: Bearer [REDACTED]"), "\(good.stdout)")
        #expect(!good.stdout.contains("EAAAfromACommand\n") && !good.stdout.contains("Bearer EAAA"))

        // The sandbox, like Square, refuses a token that is not one: 401.
        var withToken = environment
        withToken["CONFIG_TEST_TOKEN"] = "not-a-square-token"
        let bad = try await CheckoutBinary.run(["config", "check", "bad", "--json"], environment: withToken)
        #expect(bad.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(bad.stdout.utf8)) as? [String: Any]
        let endpoint = (report?["endpoints"] as? [[String: Any]])?.first
        #expect(endpoint?["verdict"] as? String == "rejected", "\(bad.stdout)")
        #expect(!bad.stdout.contains("not-a-square-token"))
        try await SchemaValidator.expectValid(bad.stdout, against: "config-check.schema.json", lines: false)
        let goodJSON = try await CheckoutBinary.run(["config", "check", "good", "--json"], environment: environment)
        try await SchemaValidator.expectValid(goodJSON.stdout, against: "config-check.schema.json", lines: false)

        let unset = try await CheckoutBinary.run(["config", "check", "unset"], environment: environment)
        #expect(unset.status == 1)
        #expect(unset.stdout.contains("✗ --square-access-token from env CONFIG_TEST_UNSET: the environment variable CONFIG_TEST_UNSET is not set"), "\(unset.stdout)")
    }

    @Test func aProfileRunsACheckoutWithItsProvidersAndCredentials() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        try write("""
            profiles:
              team:
                sandbox_url: "\(baseURL)"
              square-only:
                providers: [square]
                options: { square-url: "\(baseURL)", square-location-id: LTEAMSANDBOX01 }
                credentials:
                  square-access-token: { command: "echo EAAAteamToken" }
            """)
        // CHECKOUT_PROFILE selects it; the default provider is the profile's first.
        var selected = environment
        selected["CHECKOUT_PROFILE"] = "square-only"
        let run = try await CheckoutBinary.run(["run", "--json"], environment: selected)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\"provider\":\"square\""), "\(run.stdout)")
        #expect(!run.stdout.contains("EAAAteamToken"))

        // --profile names the team's shared sandbox: the checkout's calls go there.
        let shared = try await CheckoutBinary.run(["run", "--profile", "team", "--customer", "approve", "--json"], environment: environment)
        #expect(shared.status == 0, "\(shared.stdout)\(shared.stderr)")
        let summary = try #require(shared.lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let requestID = try #require(summary["request_id"] as? String)
        let request = try await CheckoutBinary.send("GET", baseURL + "/customer-request/v1/requests/\(requestID)", headers: [(name: "Authorization", value: "Client CAS-CI_TERMINALCHECKOUT")])
        #expect(request.status == 200, "the shared sandbox does not know \(requestID)")

        // The screen names the profile in its title bar, and offers only its providers.
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try tmux.type("clear; XDG_CONFIG_HOME='\(folder.path)' '\(CheckoutBinary.url.path)' --profile square-only")
        try await tmux.waitForAll(["profile square-only · live providers", "Card (Square)"])
        #expect(!(try await tmux.waitFor("the payment pane") { $0.contains("Card (Square)") }).contains("Cash App Pay"))
        try tmux.send("q")

        let unknown = try await CheckoutBinary.run(["run", "--profile", "nope"], environment: environment)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("there is no profile \"nope\""), "\(unknown.stderr)")
    }
}
