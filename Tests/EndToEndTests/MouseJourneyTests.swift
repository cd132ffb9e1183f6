import Foundation
import Testing
import TestSupport

/// The real binary in tmux, driven by the mouse: tmux hands the program the reports a terminal
/// sends (raw, in the encoding the program asked for), and the screen is read off.
@Suite(.serialized) struct MouseJourneyTests {
    init() {
        if !TmuxSession.isAvailable { Issue.record("tmux is not installed; `make test` installs it") }
    }

    private func cell(_ tmux: TmuxSession, of text: String) async throws -> (x: Int, y: Int) {
        try await tmux.waitFor(text)
        return try #require(try tmux.cell(of: text), "\(text) left the screen")
    }

    /// The screen under `term` with sixty logged exchanges (the newest at the bottom, so the log
    /// has somewhere to scroll), once the program has asked for mouse reports.
    private func screenWithALongLog(term: String) async throws -> TmuxSession {
        let tmux = try TmuxSession(width: 100, height: 30)
        do {
            try tmux.type("clear; TERM=\(term) '\(CheckoutBinary.url.path)' --bench-load log=60 --create-on-load false; echo exit=$?")
            try await tmux.waitForAll(["notStarted", "/bench/requests/59 "])
            try await tmux.waitFor("mouse reports on") { _ in tmux.programWantsMouse }
            return tmux
        } catch {
            tmux.close()
            throw error
        }
    }

    /// Under tmux's own TERM ncurses asks for X10 reports (mode 1000); under xterm's, for SGR (1006).
    @Test(arguments: ["screen", "xterm-256color"])
    func clicksSelectAndFocusAndTheWheelScrollsTheLog(term: String) async throws {
        let tmux = try await screenWithALongLog(term: term)
        defer { tmux.close() }

        // One click moves the shipping cursor to the row (Enter then chooses what it is on).
        let overnight = try await cell(tmux, of: "Overnight")
        try tmux.click(x: overnight.x, y: overnight.y)
        try tmux.send("Enter")
        try await tmux.waitFor("(•) Overnight")
        // A second click on the selected row chooses it.
        let express = try await cell(tmux, of: "Express Shipping")
        try tmux.click(x: express.x, y: express.y)
        try tmux.click(x: express.x, y: express.y)
        try await tmux.waitFor("(•) Express Shipping")

        // A click on the log focuses it: Enter opens the exchange under its cursor (the newest).
        let log = try await cell(tmux, of: "HTTP log (60)")
        try tmux.click(x: log.x, y: log.y)
        try tmux.send("Enter")
        try await tmux.waitFor("GET /bench/requests/59 → 200")
        try tmux.send("Escape")
        try await tmux.waitFor("the exchange closed") { !$0.contains("/bench/requests/59 → 200") }

        // The wheel scrolls the log back, and down again to the newest.
        let newest = try await cell(tmux, of: "/bench/requests/59 ")
        for _ in 0..<6 { try tmux.mouse(.wheelUp, x: newest.x, y: newest.y) }
        try await tmux.waitFor("older exchanges") { $0.contains("/bench/requests/41 ") && !$0.contains("/bench/requests/59 ") }
        for _ in 0..<7 { try tmux.mouse(.wheelDown, x: newest.x, y: newest.y) }
        try await tmux.waitFor("/bench/requests/59 ")

        try tmux.send("q")
        try await tmux.waitFor("exit=0")
    }

    /// Reports that arrive together (a quick click over SSH, batched wheel notches) are each
    /// handled, in order: none is lost behind the last one in the read.
    @Test(arguments: ["screen", "xterm-256color"])
    func reportsReadTogetherAreEachHandled(term: String) async throws {
        let tmux = try await screenWithALongLog(term: term)
        defer { tmux.close() }

        // One batched click moves the cursor; a second on the same row chooses it.
        let overnight = try await cell(tmux, of: "Overnight")
        try tmux.batchedClick(x: overnight.x, y: overnight.y)
        try tmux.batchedClick(x: overnight.x, y: overnight.y)
        try await tmux.waitFor("(•) Overnight")
        // Two clicks in one read, as a double click over a slow link arrives: focus, then choose.
        let express = try await cell(tmux, of: "Express Shipping")
        try tmux.mouse([(.press, express.x, express.y), (.release, express.x, express.y), (.press, express.x, express.y), (.release, express.x, express.y)])
        try await tmux.waitFor("(•) Express Shipping")

        // Six wheel notches in one read scroll the log back six times (three rows each), not once.
        let newest = try await cell(tmux, of: "/bench/requests/59 ")
        try tmux.mouse(Array(repeating: (.wheelUp, newest.x, newest.y), count: 6))
        try await tmux.waitFor("older exchanges") { $0.contains("/bench/requests/41 ") && !$0.contains("/bench/requests/59 ") }

        try tmux.send("q")
        try await tmux.waitFor("exit=0")
    }

    @Test func noMouseLeavesTheMouseToTheTerminal() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try tmux.type("clear; '\(CheckoutBinary.url.path)' --no-mouse; echo exit=$?")
        try await tmux.waitForAll(["Driftwood Coffee Co.", "House Blend Beans"])
        #expect(!tmux.programWantsMouse)
        // Keys work as ever.
        try tmux.send("q")
        try await tmux.waitFor("exit=0")
    }

    @Test func theFlagIsInTheHelp() async throws {
        for arguments in [["--help"], ["screen", "--help"]] {
            let outcome = try await CheckoutBinary.run(arguments)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains("--no-mouse"), "\(arguments): \(outcome.stdout)")
        }
    }
}
