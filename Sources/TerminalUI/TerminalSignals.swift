import Synchronization

/// The last ending signal received, for the UI loop to act on.
/// A handler may only do async-signal-safe work, so it just records the signal.
private let receivedSignal = Atomic<Int32>(0)

public enum TerminalSignals {
    /// The signals that end a checkout cleanly: Ctrl-C, kill, a closed terminal and Ctrl-\.
    /// SIGQUIT is among them so that the runtime's crash backtrace never lands on the screen.
    public static let ending: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Routes the ending signals to `pending` instead of killing the process.
    public static func install() {
        for signalNumber in ending {
            signal(signalNumber) { number in receivedSignal.store(number, ordering: .relaxed) }
        }
    }

    /// Restores the default actions.
    public static func uninstall() {
        for signalNumber in ending { signal(signalNumber, SIG_DFL) }
    }

    /// The signal received since the last call, if any.
    public static func takePending() -> Int32? {
        let number = receivedSignal.exchange(0, ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// The signal's name, e.g. "SIGINT", for messages and transcripts.
    public static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(number)"
        }
    }
}
