import Foundation

/// The real binary on a pseudo-terminal of its own, with every byte it writes kept: what a
/// terminal receives, escape sequences and all (tmux would interpret them away).
public final class PtySession: @unchecked Sendable {
    public let pid: pid_t
    private let master: Int32
    private let lock = NSLock()
    private var received: [UInt8] = []
    private var exitStatus: Int32?

    /// Starts `arguments[0]` with the pty (width×height) as its stdin, stdout and stderr.
    public init(_ arguments: [String], environment: [String: String], width: Int = 100, height: Int = 30) throws {
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        var (master, slave): (Int32, Int32) = (-1, -1)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw ChildProcessError(arguments: arguments, errno: errno) }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        defer { close(slave) }
        do {
            pid = try CleanSpawn.start(
                arguments, environment: environment, files: [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].map { .duplicate(slave, as: $0) })
        } catch {
            close(master)
            throw error
        }
        self.master = master
        let reader = Thread { [self] in readUntilClosed() }
        reader.name = "pty-reader"
        reader.start()
    }

    deinit {
        if status == nil { kill(pid, SIGKILL) }
        close(master)
    }

    /// Everything the child wrote so far.
    public var output: [UInt8] { lock.withLock { received } }

    /// The exit status once the child has exited and its output is all read.
    public var status: Int32? { lock.withLock { exitStatus } }

    /// Types `text` into the terminal.
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until the output satisfies `condition`; throws with the output's tail on timeout.
    public func waitFor(_ what: String, timeout: Double = 45, _ condition: ([UInt8]) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if condition(output) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw PtyTimeout(waitingFor: what, tail: String(decoding: output.suffix(600), as: UTF8.self))
    }

    /// Waits until `bytes` appear in the output.
    public func waitFor(_ text: String, timeout: Double = 45) async throws {
        let needle = Array(text.utf8)
        try await waitFor("\"\(text)\"", timeout: timeout) { $0.firstRange(of: needle) != nil }
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                lock.withLock { received += buffer[0..<count] }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break  // EIO once the child and every copy of the slave have gone
            }
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        let signalNumber = raw & 0x7f
        lock.withLock { exitStatus = signalNumber == 0 ? (raw >> 8) & 0xff : 128 + signalNumber }
    }
}

public struct PtyTimeout: Error, CustomStringConvertible {
    public let waitingFor: String
    public let tail: String
    public var description: String { "timed out waiting for \(waitingFor); the output ended with:\n\(tail.debugDescription)" }
}
