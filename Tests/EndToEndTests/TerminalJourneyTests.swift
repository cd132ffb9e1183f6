import Foundation
import Testing
import TestSupport

/// The real binary in a real terminal (tmux), driven by keys, read off the screen.
@Suite(.serialized) struct TerminalJourneyTests {
    init() {
        if !TmuxSession.isAvailable { Issue.record("tmux is not installed; `make test` installs it") }
    }

    /// `stty -a` in the pane after checkout ended: canonical mode and echo are back.
    private func expectTerminalRestored(_ tmux: TmuxSession) async throws {
        try tmux.type("clear; stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo END")
        let screen = try await tmux.waitFor("END")
        #expect(screen.contains("icanon echo END"), "\(screen)")
    }

    @Test func payByKeyboardAndApproveAsTheCustomer() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        try tmux.type("'\(CheckoutBinary.url.path)'")
        try await tmux.waitFor("notStarted")
        try await tmux.waitFor("Total · Driftwood Coffee Co.                  $45.05")

        // Esc closes the help at once, not after curses' default one-second Esc delay.
        try tmux.send("?")
        try await tmux.waitFor("quit at once")
        try tmux.send("Escape")
        try await tmux.waitFor("help closed", timeout: 0.8) { !$0.contains("quit at once") }

        try tmux.send("+")
        try await tmux.waitFor("3 × $16.50")
        try tmux.send("Tab", "Down", "Enter")
        try await tmux.waitFor("(•) Express Shipping")
        try await tmux.waitFor("$72.74")

        try tmux.send("p")
        try await tmux.waitFor("readyToAuthorize")
        try tmux.send("p")
        try await tmux.waitFor("polling")
        try tmux.send("a")
        let approved = try await tmux.waitFor("approved  Approved")
        #expect(approved.contains("$72.74"))
        #expect(approved.contains("paid by $SandboxShopper"))
        #expect(approved.contains("/approve"))

        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
        try await expectTerminalRestored(tmux)
    }

    @Test func quittingWhilePollingAsksFirst() async throws {
        let tmux = try TmuxSession(width: 80, height: 24)
        try tmux.type("'\(CheckoutBinary.url.path)'")
        try await tmux.waitFor("notStarted")
        try tmux.send("p")
        try await tmux.waitFor("readyToAuthorize")
        try tmux.send("Enter")
        try await tmux.waitFor("polling")
        try tmux.send("q")
        try await tmux.waitFor("Quit anyway?")
        try tmux.send("n")
        try await tmux.waitFor("Quit anyway?", timeout: 5) { !$0.contains("Quit anyway?") }
        try tmux.send("q", "y")
        try await tmux.waitFor("checkout: left in polling")
        try await expectTerminalRestored(tmux)
    }

    @Test func sigtermAndCtrlCRestoreTheTerminal() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        try tmux.type("'\(CheckoutBinary.url.path)'; echo exit=$?")
        try await tmux.waitFor("notStarted")
        let shell = try #require(tmux.shellPID)
        let kill = Process()
        kill.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        kill.arguments = ["pkill", "-TERM", "-P", "\(shell)", "-x", "checkout"]
        try kill.run()
        kill.waitUntilExit()
        try await tmux.waitFor("exit=143")
        try await expectTerminalRestored(tmux)

        try tmux.type("clear; '\(CheckoutBinary.url.path)'; echo exit=$?")
        try await tmux.waitFor("notStarted")
        try tmux.send("C-c")
        try await tmux.waitFor("exit=0")
        try await expectTerminalRestored(tmux)
    }

    @Test func tooSmallThenEnlarged() async throws {
        let tmux = try TmuxSession(width: 70, height: 20)
        try tmux.type("'\(CheckoutBinary.url.path)'")
        try await tmux.waitFor("terminal too small: need 80×24, have 70×20")
        try tmux.resize(width: 100, height: 30)
        try await tmux.waitFor("notStarted")
        try tmux.send("q")
        try await expectTerminalRestored(tmux)
    }
}
