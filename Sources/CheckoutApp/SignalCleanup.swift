import Dispatch
import Foundation
import Synchronization
import TerminalUI

/// On SIGINT, SIGTERM, SIGHUP or SIGQUIT runs a clean-up (writing a transcript, removing a run's
/// faults from a shared sandbox, stopping a sandbox), then exits with 128 + the signal, as the
/// shell expects. A clean-up that hangs (a sandbox that no longer answers) is cut short after
/// `deadline`, and a second signal exits at once.
public final class SignalCleanup {
    private let sources: [any DispatchSourceSignal]
    private let once: FirstSignal
    private static let deadline: Duration = .seconds(5)

    private init(sources: [any DispatchSourceSignal], once: FirstSignal) {
        self.sources = sources
        self.once = once
    }

    /// When a signal has begun the clean-up, waits for it to end the process with 128 + the
    /// signal, so a caller whose work the clean-up ended (a stopped sandbox) does not return
    /// first and exit 0.
    public func awaitExitIfSignalled() async {
        guard once.seen.load(ordering: .relaxed) else { return }
        while true { try? await Task.sleep(for: .seconds(60)) }
    }

    /// Installs the clean-up; it is listening for every ending signal when this returns.
    public static func install(_ cleanup: @escaping @Sendable (_ signal: Int32) async -> Void) async -> SignalCleanup {
        let once = FirstSignal()
        let sources = await RegisteredSignalSources.install(TerminalSignals.ending) { number in
            guard !once.seen.exchange(true, ordering: .relaxed) else { once.exit(128 + number) }
            Task.detached {
                try? await Task.sleep(for: deadline)
                once.exit(128 + number)
            }
            Task {
                await cleanup(number)
                once.exit(128 + number)
            }
        }
        return SignalCleanup(sources: sources, once: once)
    }

    /// Stops listening; the signals' default actions return.
    public func cancel() { RegisteredSignalSources.cancel(sources) }
}

/// Whether an ending signal has already started the clean-up, and whether the process is
/// already exiting.
private final class FirstSignal: Sendable {
    let seen = Atomic<Bool>(false)
    private let exiting = Atomic<Bool>(false)

    /// Exits once: `exit` run on two threads at once (a clean-up ending just as its deadline
    /// passes, or a second signal) runs the exit handlers twice at once, which may crash or hang.
    /// A later caller waits for the first one's exit.
    func exit(_ status: Int32) -> Never {
        if exiting.exchange(true, ordering: .acquiringAndReleasing) {
            while true { pause() }
        }
        Foundation.exit(status)
    }
}
