import Foundation

/// A real terminal for whole-journey tests: a detached tmux session running a shell.
public final class TmuxSession: @unchecked Sendable {
    public let name: String

    public static var isAvailable: Bool {
        ExecutableSearch.onPath("tmux") != nil
    }

    /// Starts `bash` in a width×height window with a UTF-8 locale and no Esc delay, on a tmux
    /// server of its own (its own socket, no user configuration).
    public init(width: Int = 100, height: Int = 30) throws {
        name = "checkout-test-\(UUID().uuidString.prefix(8))"
        try tmux([
            "-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
            "env", "LANG=\(UTF8Locale.name)", "LC_ALL=\(UTF8Locale.name)", "PS1=$ ", "bash", "--norc", "--noprofile",
        ])
        try tmux(["set-option", "-s", "escape-time", "0"])
        try tmux(["set-option", "-t", name, "status", "off"])
    }

    /// Ends the session's tmux server and everything running in it.
    public func close() {
        _ = try? tmux(["kill-server"])
    }

    deinit { close() }

    /// Types `keys` (tmux key names such as Enter, Tab, Down, C-c; anything else literally).
    public func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// Types text literally, without Enter (into a form's field).
    public func typeText(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// Types text literally, then Enter.
    public func type(_ line: String) throws {
        try tmux(["send-keys", "-t", name, "-l", line])
        try tmux(["send-keys", "-t", name, "Enter"])
    }

    /// Resizes the window, as a user dragging the terminal.
    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    public func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name])
    }

    /// Sends `signal` to the pane shell's child named `name`.
    public func signalChild(named name: String, _ signal: Int32) throws {
        guard let shell = shellPID else { throw TmuxFailure(arguments: ["display-message"], output: "no pane pid") }
        for pid in ProcessTable.children(of: shell, named: name) { kill(pid, signal) }
    }

    /// Write calls made so far by the pane shell's child named `name`; nil when it is not
    /// running or the system does not count them.
    public func writeCalls(ofChild name: String) -> Int? {
        guard let shell = shellPID, let pid = ProcessTable.children(of: shell, named: name).first else { return nil }
        return ProcessTable.writeCalls(of: pid)
    }

    /// Whether this system counts a process's write calls (Linux does; macOS does not).
    public static var countsWriteCalls: Bool { ProcessTable.writeCalls(of: getpid()) != nil }

    public var shellPID: Int32? {
        (try? tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Waits until the screen satisfies `condition`; on timeout throws with the last screen.
    @discardableResult
    public func waitFor(_ what: String, timeout: Double = 45, _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var last = ""
        while ContinuousClock.now < deadline {
            last = try screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TmuxTimeout(waitingFor: what, lastScreen: last)
    }

    /// Waits until every marker is on one capture: a frame can be caught half drawn, so what
    /// a test checks belongs in the condition, not in a later look at the same capture.
    @discardableResult
    public func waitForAll(_ markers: [String], timeout: Double = 45) async throws -> String {
        try await waitFor(markers.map { "\"\($0)\"" }.joined(separator: " and "), timeout: timeout) { screen in
            markers.allSatisfy(screen.contains)
        }
    }

    @discardableResult
    public func waitFor(_ marker: String, timeout: Double = 45) async throws -> String {
        try await waitFor("\"\(marker)\"", timeout: timeout) { $0.contains(marker) }
    }

    /// Runs tmux on this session's own server socket.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let child = try ChildProcess(["tmux", "-L", name] + arguments)
        guard child.waitForExit() == 0 else { throw TmuxFailure(arguments: arguments, output: child.stdout + child.stderr) }
        return child.stdout
    }
}

public struct TmuxTimeout: Error, CustomStringConvertible {
    public let waitingFor: String
    public let lastScreen: String
    public var description: String { "timed out waiting for \(waitingFor); last screen:\n\(lastScreen)" }
}

public struct TmuxFailure: Error, CustomStringConvertible {
    public let arguments: [String]
    public let output: String
    public var description: String { "tmux \(arguments.joined(separator: " ")) failed: \(output)" }
}
