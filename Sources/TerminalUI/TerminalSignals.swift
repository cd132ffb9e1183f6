import Glibc
import Synchronization

/// The last SIGINT, SIGTERM or SIGHUP received, for the UI loop to act on.
/// A handler may only do async-signal-safe work, so it just records the signal.
private let receivedSignal = Atomic<Int32>(0)

public enum TerminalSignals {
    /// Routes SIGINT, SIGTERM and SIGHUP to `pending` instead of killing the process.
    public static func install() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { number in receivedSignal.store(number, ordering: .relaxed) }
        }
    }

    /// Restores the default actions.
    public static func uninstall() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { signal(signalNumber, SIG_DFL) }
    }

    /// The signal received since the last call, if any.
    public static func takePending() -> Int32? {
        let number = receivedSignal.exchange(0, ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
