import Foundation
import Testing
import TestSupport

/// Scenario files, transcripts and replays through the real `checkout run`, against its
/// embedded sandbox.
@Suite struct ScenarioRunTests {
    static let scenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/scenarios")

    static var sampleNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scenarios.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }
            .sorted()
    }

    static func sample(_ name: String) -> String { scenarios.appendingPathComponent(name).path }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func json(_ path: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
    }

    @Test func thereAreSampleScenarios() {
        #expect(Self.sampleNames.count >= 6, "\(Self.scenarios.path)")
    }

    @Test(arguments: sampleNames)
    func everySampleScenarioMeetsItsExpectation(name: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", Self.sample(name), "--retry-base-ms", "50"])
        #expect(outcome.status == 0, "\(name)\n\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.lines.contains { $0.hasPrefix("expect: met") }, "\(name)\n\(outcome.stdout)")
    }

    @Test func anExpectationThatDoesNotHoldExitsOne() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("wrong.yaml")
        try Data("name: wrong expectation\ncustomer: decline\nexpect:\n  state: approved\n".utf8).write(to: file)
        let outcome = try await CheckoutBinary.run(["run", file.path])
        #expect(outcome.status == 1, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.states.last == "declined")
        #expect(outcome.lines.contains("expect: NOT met: expected approved, got declined"), "\(outcome.stdout)")
    }

    @Test func aBrokenScenarioIsAUsageErrorAtItsLineAndColumn() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.yaml")
        try Data("name: broken\ncart:\n  - sku: MUG-ENAMEL\n    quantity: two\n".utf8).write(to: file)
        let outcome = try await CheckoutBinary.run(["run", file.path])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("\(file.path):4:15: cart[0].quantity: \"two\" is not a whole number"), "\(outcome.stderr)")
        #expect(outcome.states.isEmpty)
    }

    @Test func aMissingScenarioFileIsAUsageError() async throws {
        let outcome = try await CheckoutBinary.run(["run", "/nonexistent/scenario.yaml"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("/nonexistent/scenario.yaml: no such file"), "\(outcome.stderr)")
    }

    /// Records `scenario` and returns the transcript's text and JSON, checking no secret is in it.
    private func record(_ arguments: [String], secrets: [String], in directory: URL) async throws -> (url: URL, text: String, json: [String: Any]) {
        let har = directory.appendingPathComponent("checkout.har")
        let outcome = try await CheckoutBinary.run(["run"] + arguments + ["--record", har.path, "--retry-base-ms", "50"])
        #expect(outcome.status == 0, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stderr.contains("transcript: wrote \(har.path)"), "\(outcome.stderr)")
        let text = try #require(String(data: try Data(contentsOf: har), encoding: .utf8))
        let json = try Self.json(har)
        let log = try #require(json["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(!entries.isEmpty)
        #expect(log["_terminalCheckout"] is [String: Any])
        for secret in secrets {
            #expect(!text.contains(secret), "the transcript contains the secret \(secret)")
            #expect(!outcome.stdout.contains(secret) && !outcome.stderr.contains(secret), "the output contains the secret \(secret)")
        }
        #expect(text.contains("[REDACTED]"))
        return (har, text, json)
    }

    @Test func aRecordingHoldsNoSecretOfTheEmbeddedSandbox() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, text, _) = try await record([Self.sample("happy-path.yaml")], secrets: ["CAS-CI_TERMINALCHECKOUT"], in: directory)
        #expect(text.contains("Client [REDACTED]"))
    }

    @Test func aRecordingHoldsNoClientIDGivenOnTheCommandLine() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "CAS-CI_supersecretclient123"
        let (_, text, _) = try await record(
            [Self.sample("happy-path.yaml"), "--client-id", secret], secrets: [secret, "supersecretclient123"], in: directory)
        #expect(text.contains("Client [REDACTED]"))
    }

    @Test func anAfterpayRecordingHoldsNoMerchantSecret() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let basic = Data("100101:sandbox-secret-key".utf8).base64EncodedString()
        let (_, text, json) = try await record(
            [Self.sample("afterpay-happy-path.json")],
            secrets: ["sandbox-secret-key", basic, "CAS-CI_TERMINALCHECKOUT"], in: directory)
        #expect(text.contains("Basic [REDACTED]"))
        let log = try #require(json["log"] as? [String: Any])
        let providers = Set(((log["entries"] as? [[String: Any]]) ?? []).compactMap { $0["_provider"] as? String })
        #expect(providers.contains("afterpay"), "\(providers)")
    }

    @Test func aReplayOfARecordingIsTheSame() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (har, _, _) = try await record([Self.sample("happy-path.yaml")], secrets: [], in: directory)
        let replay = try await CheckoutBinary.run(["run", "--replay", har.path, "--retry-base-ms", "50"])
        #expect(replay.status == 0, "\(replay.stdout)\n\(replay.stderr)")
        #expect(replay.lines.contains { $0.hasPrefix("replay: same as the recording") }, "\(replay.stdout)")
    }

    /// `replay --headless` prints what the run printed, byte for byte, and exits as it did.
    @Test(arguments: [("customer-declines.yaml", []), ("afterpay-capture-declined.yaml", ["--json"])])
    func aHeadlessReplayPrintsWhatTheRunPrinted(name: String, flags: [String]) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let har = directory.appendingPathComponent("run.har")
        let run = try await CheckoutBinary.run(["run", Self.sample(name), "--record", har.path] + flags)
        let first = try await CheckoutBinary.run(["replay", har.path, "--headless"] + flags)
        let second = try await CheckoutBinary.run(["replay", har.path, "--headless"] + flags)
        #expect(first.stdout == run.stdout)
        #expect(second.stdout == first.stdout)
        #expect(first.status == run.status)
    }

    @Test func aReplayOfAnAfterpayRecordingIsTheSame() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (har, _, _) = try await record([Self.sample("afterpay-happy-path.json")], secrets: [], in: directory)
        let replay = try await CheckoutBinary.run(["run", "--replay", har.path, "--retry-base-ms", "50"])
        #expect(replay.status == 0, "\(replay.stdout)\n\(replay.stderr)")
        #expect(replay.lines.contains { $0.hasPrefix("replay: same as the recording") }, "\(replay.stdout)")
    }

    @Test func aReplayOfAnEditedRecordingDiverges() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (har, _, json) = try await record([Self.sample("happy-path.yaml")], secrets: [], in: directory)
        var log = try #require(json["log"] as? [String: Any])
        var record = try #require(log["_terminalCheckout"] as? [String: Any])
        var events = try #require(record["events"] as? [[String: Any]])
        #expect(events.last?["state"] as? String == "approved")
        events[events.count - 1]["state"] = "declined"
        record["events"] = events
        log["_terminalCheckout"] = record
        let edited = directory.appendingPathComponent("edited.har")
        try JSONSerialization.data(withJSONObject: ["log": log], options: [.prettyPrinted]).write(to: edited)
        _ = har

        let replay = try await CheckoutBinary.run(["run", "--replay", edited.path, "--retry-base-ms", "50"])
        #expect(replay.status == 1, "\(replay.stdout)\n\(replay.stderr)")
        let line = try #require(replay.lines.first { $0.hasPrefix("replay: diverged at step") }, "\(replay.stdout)")
        #expect(line.contains("recorded `state: declined`, now `state: approved`"), "\(line)")
    }

    @Test func replayingAFileThatIsNotATranscriptIsAUsageError() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await CheckoutBinary.run(["run", "--replay", Self.sample("happy-path.yaml")])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("is not a HAR"), "\(outcome.stderr)")
        #expect(outcome.states.isEmpty)
    }

    @Test func recordingIntoAMissingDirectoryFailsBeforeTheCheckout() async throws {
        let path = "/nonexistent-\(UUID().uuidString)/checkout.har"
        let outcome = try await CheckoutBinary.run(["run", Self.sample("happy-path.yaml"), "--record", path])
        #expect(outcome.status == 64, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.stderr.contains("transcript \(path) cannot be written: the directory"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("does not exist"))
        #expect(outcome.states.isEmpty, "no checkout ran: \(outcome.stdout)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
