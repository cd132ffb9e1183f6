import CNcurses
import Synchronization

/// curses opened on the main thread while the command line is still being read, when the command
/// can only be the screen (plain `checkout` on a terminal). Its locale and terminal description
/// (about 0.7 ms) then overlap the parse and the catalog's decode instead of delaying the first
/// frame. The screen's `NcursesTerminal` takes it; whatever else ends the command closes it first,
/// so no message lands on a raw screen and no terminal is left raw.
public enum CursesAhead {
    /// curses' standard screen, handed from the thread that opened it to the one that draws.
    private struct Window: @unchecked Sendable { let pointer: UnsafeMutablePointer<WINDOW> }

    private enum State: Sendable {
        case notAsked
        case open(Window)
        /// Taken by the screen, closed, failed, or asked for before it was opened: nothing more to do.
        case settled
    }

    private static let state = Mutex<State>(.notAsked)

    /// Opens curses now, unless the screen has already started without it. The ending signals
    /// are held for the screen's loop from here (as `NcursesTerminal` does), and an exit that
    /// never reaches the screen restores the terminal.
    public static func open() {
        let opened = state.withLock { state -> Bool in
            guard case .notAsked = state else { return false }
            guard let window = try? NcursesTerminal.openCurses() else {
                state = .settled
                return false
            }
            TerminalSignals.install()
            state = .open(Window(pointer: window))
            return true
        }
        if opened { atexit { CursesAhead.closeIfUntaken() } }
    }

    /// The screen opened ahead, once; nil when there is none (and from then on none will be opened).
    static func take() -> UnsafeMutablePointer<WINDOW>? {
        state.withLock { state in
            defer { state = .settled }
            guard case .open(let window) = state else { return nil }
            return window.pointer
        }
    }

    /// Leaves curses opened ahead that the screen never took: before an error is written, and at exit.
    public static func closeIfUntaken() {
        state.withLock { state in
            guard case .open = state else { return }
            state = .settled
            curs_set(1)
            endwin()
            TerminalSignals.uninstall()
        }
    }
}
