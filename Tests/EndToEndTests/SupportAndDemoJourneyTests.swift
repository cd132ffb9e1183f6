import Foundation
import QRCode
import Testing
import TestSupport

/// Support and demo journeys in a real terminal: the QR code scanned off the screen, a
/// recorded screen session replayed, and demo mode looping.
@Suite(.serialized) struct SupportAndDemoJourneyTests {
    /// The screen is drawn (its title bar). Not `notStarted`: with Cash App Pay chosen the request
    /// is made as the checkout loads, so the banner may be past it before the first capture.
    static let drawn = "TerminalCheckout · Driftwood Coffee Co."

    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/scenarios")

    init() {
        if !TmuxSession.isAvailable { Issue.record("tmux is not installed; `make test` installs it") }
    }

    private func launch(_ tmux: TmuxSession, _ arguments: String = "", then: String = "", waitingFor marker: String = Self.drawn) async throws {
        try tmux.type("clear; '\(CheckoutBinary.url.path)' \(arguments)" + (then.isEmpty ? "" : "; \(then)"))
        try await tmux.waitFor(marker)
    }

    private func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
    }

    @Test(.enabled(if: Zbar.executable != nil || Zbar.isCI, "zbarimg not on PATH (apt install zbar-tools)"))
    func theQRCodeOnTheScreenScansToTheAuthorizationLink() async throws {
        let zbarimg = try #require(Zbar.executable, "zbarimg must be installed in CI (zbar-tools)")
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux)
        // Cash App Pay's request is made as the checkout loads (PayKit's seed): ready without a p.
        try await tmux.waitFor("readyToAuthorize")
        try tmux.send("p")
        let screen = try await tmux.waitForAll(["polling", "Scan to pay", "v hides"])
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0)) }

        // The link as the banner prints it (cut over two rows), and the code as drawn.
        let linkRow = try #require(lines.firstIndex { String($0).contains("/authorize?t=") })
        let link = String(lines[linkRow]).trimmingCharacters(in: .whitespaces) + String(lines[linkRow + 1]).trimmingCharacters(in: .whitespaces)
        let top = try #require(lines.firstIndex { String($0).contains("┌─ Scan to pay") })
        // The panel is the rightmost box on its row.
        let left = try #require(lines[top].lastIndex(of: "┌"))
        let right = try #require(lines[top].lastIndex(of: "┐"))
        let bottom = try #require(lines.indices.first { $0 > top && lines[$0].indices.contains(left) && lines[$0][left] == "└" })
        let drawn = lines[(top + 1)..<bottom].map { String($0[(left + 1)..<right]) }.filter { !$0.allSatisfy { $0 == " " } }

        let image = temporaryFile("screen.pbm")
        defer { try? FileManager.default.removeItem(at: image) }
        try QRImage.pbm(QRHalfBlocks.modules(from: drawn), scale: 4, margin: 4).write(to: image)
        #expect(try await Zbar.decode(zbarimg, file: image) == link)
        try tmux.send("q", "y")
    }

    @Test func aRecordedScreenSessionReplaysTheSameStates() async throws {
        let har = temporaryFile("screen.har")
        defer { try? FileManager.default.removeItem(at: har) }
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        let scenario = Self.scenarios.appendingPathComponent("happy-path.yaml").path
        try await launch(tmux, "'\(scenario)' --record '\(har.path)'", then: "echo exit=$?", waitingFor: "happy path")
        // Cash App Pay's request is made as the checkout loads (PayKit's seed): ready without a p.
        try await tmux.waitFor("readyToAuthorize")
        try tmux.send("p")
        // The scenario's customer approves on its own.
        try await tmux.waitForAll(["Receipt · paid", "Paid by $SandboxShopper"])
        try tmux.send("q")
        try await tmux.waitForAll(["transcript: wrote", "exit=0"])

        let first = try await CheckoutBinary.run(["replay", har.path, "--headless"])
        let second = try await CheckoutBinary.run(["replay", har.path, "--headless"])
        #expect(first.status == 0)
        #expect(first.stdout == second.stdout)
        #expect(first.states == ["notStarted", "creatingCustomerRequest", "readyToAuthorize", "redirecting", "polling", "approved"])

        let rerun = try await CheckoutBinary.run(["run", "--replay", har.path])
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        #expect(rerun.stdout.contains("replay: same as the recording"))
        #expect(rerun.states == first.states)
    }

    @Test func replayOnTheScreenPausesStepsAndFinishes() async throws {
        let har = temporaryFile("run.har")
        defer { try? FileManager.default.removeItem(at: har) }
        let recorded = try await CheckoutBinary.run(["run", Self.scenarios.appendingPathComponent("customer-declines.yaml").path, "--record", har.path])
        #expect(recorded.status == 0)

        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux, "replay '\(har.path)' --speed 0.25", then: "echo exit=$?", waitingFor: "replay")
        try tmux.send("Space")
        try await tmux.waitFor("replay paused")
        // → shows one more recorded step at a time, however slow the replay is.
        for _ in 0..<12 { try tmux.send("Right") }
        try await tmux.waitForAll(["replay finished", "declined", "Press r to start a new checkout"])
        try tmux.send("q")
        try await tmux.waitFor("exit=0")
    }

    @Test func demoModeLoopsThroughTheReceiptTwiceAndPausesOnAnyKey() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await launch(tmux, "demo --speed 4", then: "echo exit=$?", waitingFor: "demo · loop 1")
        try await tmux.waitForAll(["Scan to pay", "demo · loop 1"], timeout: 30)
        try await tmux.waitForAll(["Receipt · paid", "approved · completed", "demo · loop 1"], timeout: 30)
        try await tmux.waitForAll(["Receipt · paid", "approved · completed", "demo · loop 2"], timeout: 60)
        try tmux.send("Space")
        try await tmux.waitFor("demo paused")
        try tmux.send("Space")
        try await tmux.waitFor("demo resumed") { $0.contains("▶ demo") }
        try tmux.send("q")
        try await tmux.waitFor("exit=0")
    }
}
