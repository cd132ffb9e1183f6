import Foundation
import Testing
import TestSupport

/// A transcript from a ticket is data, not instructions: escape sequences in it are printed
/// escaped, and numbers out of range are refused.
@Suite struct HostileTranscriptTests {
    private func recorded() async throws -> (URL, [String: Any]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("run.har")
        let outcome = try await CheckoutBinary.run(["run", "--record", path.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        return (path, object)
    }

    private func rewrite(_ object: [String: Any], at path: URL, _ change: (inout [String: Any]) -> Void) throws {
        var log = try #require(object["log"] as? [String: Any])
        var record = try #require(log["_terminalCheckout"] as? [String: Any])
        change(&record)
        log["_terminalCheckout"] = record
        var document = object
        document["log"] = log
        try JSONSerialization.data(withJSONObject: document).write(to: path)
    }

    @Test func escapeSequencesInARecordedLineArePrintedEscaped() async throws {
        let (path, object) = try await recorded()
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        try rewrite(object, at: path) { record in
            var events = record["events"] as? [[String: Any]] ?? []
            events[0]["line"] = "state: notStarted\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[?1049h"
            record["events"] = events
        }
        let replay = try await CheckoutBinary.run(["replay", "--headless", path.path])
        #expect(replay.status == 0)
        #expect(!replay.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(replay.stdout.contains(#"state: notStarted\u{1B}]0;pwned\u{7}\u{1B}[2J"#), "\(replay.stdout)")
    }

    @Test(arguments: [256, 999, -1])
    func anExitStatusNoCheckoutHasIsRefused(status: Int) async throws {
        let (path, object) = try await recorded()
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        try rewrite(object, at: path) { $0["exit_status"] = status }
        let replay = try await CheckoutBinary.run(["replay", "--headless", path.path])
        #expect(replay.status == 64)
        #expect(replay.stderr.contains("exit_status \(status)"), "\(replay.stderr)")
    }

    @Test func aNumberOutOfRangeNamesItsField() async throws {
        let (path, object) = try await recorded()
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        try rewrite(object, at: path) { record in
            var events = record["events"] as? [[String: Any]] ?? []
            events[0]["at_ms"] = 1e30
            record["events"] = events
        }
        let replay = try await CheckoutBinary.run(["replay", "--headless", path.path])
        #expect(replay.status == 64)
        #expect(replay.stderr.contains("log._terminalCheckout.events[0].at_ms 1e+30, a number out of range"), "\(replay.stderr)")
        #expect(!replay.stderr.contains("not valid JSON"))
    }

    @Test func aWrongTypeIsNamedInWordsNotSwiftTypes() async throws {
        let (path, object) = try await recorded()
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        try rewrite(object, at: path) { $0["exit_status"] = "zero" }
        let replay = try await CheckoutBinary.run(["replay", "--headless", path.path])
        #expect(replay.status == 64)
        #expect(replay.stderr.contains("exit_status: expected a whole number"), "\(replay.stderr)")
        #expect(!replay.stderr.contains("Int32"))
    }
}
