
/// Wakes a terminal that waits for input, from any thread: the UI loop's inbox got a message,
/// so the screen shows it now rather than when the input wait times out.
public struct TerminalWaker: Sendable {
    let fd: Int32

    public func wake() {
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up; nothing more is needed.
        _ = SystemIO.write(fd, &byte, 1)
    }
}

/// The pipe a waker writes and the terminal's input wait watches; non-blocking both ends.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (readEnd, writeEnd) = (fds[0], fds[1])
    }

    /// Empties the pipe: every wake-up so far is seen.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while SystemIO.read(readEnd, &buffer, buffer.count) > 0 {}
    }

    // Never closed while the process lives: a waker on another thread may still hold the
    // write end, and a closed number could be reused by another file.
}
