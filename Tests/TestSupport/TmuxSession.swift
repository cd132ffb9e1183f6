import Foundation

/// A real terminal for whole-journey tests: a detached tmux session running a shell.
public final class TmuxSession: @unchecked Sendable {
    public let name: String

    public static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `bash` in a width×height window with a UTF-8 locale and no Esc delay.
    public init(width: Int = 100, height: Int = 30) throws {
        name = "checkout-test-\(UUID().uuidString.prefix(8))"
        try Self.tmux([
            "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
            "env", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PS1=$ ", "bash", "--norc", "--noprofile",
        ])
        try Self.tmux(["set-option", "-t", name, "escape-time", "0"])
        try Self.tmux(["set-option", "-t", name, "status", "off"])
    }

    deinit { try? Self.tmux(["kill-session", "-t", name]) }

    /// Types `keys` (tmux key names such as Enter, Tab, Down, C-c; anything else literally).
    public func send(_ keys: String...) throws {
        try Self.tmux(["send-keys", "-t", name] + keys)
    }

    /// Types text literally, then Enter.
    public func type(_ line: String) throws {
        try Self.tmux(["send-keys", "-t", name, "-l", line])
        try Self.tmux(["send-keys", "-t", name, "Enter"])
    }

    /// Resizes the window, as a user dragging the terminal.
    public func resize(width: Int, height: Int) throws {
        try Self.tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    public func screen() throws -> String {
        try Self.tmux(["capture-pane", "-p", "-t", name])
    }

    public var shellPID: Int32? {
        (try? Self.tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Waits until the screen satisfies `condition`; on timeout throws with the last screen.
    @discardableResult
    public func waitFor(_ what: String, timeout: Double = 15, _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(timeout)
        var last = ""
        while ContinuousClock.now < deadline {
            last = try screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TmuxTimeout(waitingFor: what, lastScreen: last)
    }

    @discardableResult
    public func waitFor(_ marker: String, timeout: Double = 15) async throws -> String {
        try await waitFor("\"\(marker)\"", timeout: timeout) { $0.contains(marker) }
    }

    @discardableResult
    static func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw TmuxFailure(arguments: arguments, output: text) }
        return text
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
