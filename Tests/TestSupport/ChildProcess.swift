import Foundation

/// A child process spawned with posix_spawn and reaped with waitpid, its output going to
/// files. Foundation's Process sometimes never notices a child's exit (reliably so for a
/// tmux client that has just daemonized a server) and then waits forever; this cannot.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let stdoutPath: String
    private let stderrPath: String
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `arguments[0]` (looked up in PATH) with the given environment.
    public init(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        let (out, err) = (base + ".out", base + ".err")
        (stdoutPath, stderrPath) = (out, err)
        pid = try CleanSpawn.start(
            arguments, environment: environment,
            files: [
                .open(0, "/dev/null", flags: O_RDONLY), .open(1, out, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600),
                .open(2, err, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600),
            ])
    }

    deinit {
        if status == nil { kill(pid, SIGKILL); _ = waitForExit() }
        try? FileManager.default.removeItem(atPath: stdoutPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The exit status once reaped (128 + signal when killed by one).
    public var status: Int32? { lock.withLock { exitStatus } }

    public func signal(_ number: Int32) { kill(pid, number) }

    /// Blocks until the child exits and returns its status.
    @discardableResult
    public func waitForExit() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        let signalNumber = raw & 0x7f
        let status = signalNumber == 0 ? (raw >> 8) & 0xff : 128 + signalNumber
        lock.withLock { exitStatus = status }
        return status
    }

    /// Waits on a thread of its own, so no cooperative thread is blocked meanwhile.
    public func exit(timeout: Double) async -> Int32 {
        let pid = pid
        let timer = DispatchWorkItem { kill(pid, SIGTERM) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.waitForExit()) }.start()
        }
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let arguments: [String]
    public let errno: Int32
    public var description: String { "could not start \(arguments.joined(separator: " ")): \(String(cString: strerror(errno)))" }
}
