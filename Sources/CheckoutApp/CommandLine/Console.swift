import Foundation
import Synchronization
import TerminalUI

/// Unbuffered writes, so lines reach pipes (and tests) as they happen. Everything printed may
/// carry text from a file, a provider or the network, so control characters are escaped here,
/// on every output path.
public enum Console {
    private static let standardOutput = ConsoleStream(descriptor: STDOUT_FILENO)
    private static let standardError = ConsoleStream(descriptor: STDERR_FILENO)

    /// A line on standard output; curses opened ahead for a screen that did not come is left first.
    public static func out(_ line: String) {
        CursesAhead.closeIfUntaken()
        standardOutput.put(printable(line))
    }

    /// A line on standard error, likewise after leaving curses opened ahead.
    public static func err(_ line: String) {
        CursesAhead.closeIfUntaken()
        standardError.put(printable(line))
    }

    private static func printable(_ line: String) -> String {
        let body = line.hasSuffix("\n") ? String(line.dropLast()) : line
        return TerminalText.escapingControls(lines: body) + "\n"
    }
}

/// One of the process's output descriptors. A reader that went away (`checkout run --json | head`)
/// ends the writing, not the process: the run goes on to its clean-up and exit status, where
/// FileHandle's write trapped on the broken pipe.
private final class ConsoleStream: Sendable {
    private let descriptor: Int32
    private let closed = Atomic<Bool>(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func put(_ text: String) {
        guard !closed.load(ordering: .relaxed) else { return }
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN {
                    // A descriptor left non-blocking by whoever shares it: wait until it drains.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                } else {
                    closed.store(true, ordering: .relaxed)
                    return
                }
            }
        }
    }
}
