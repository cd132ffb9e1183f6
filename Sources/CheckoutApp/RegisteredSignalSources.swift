import Dispatch
import Foundation
import Synchronization

/// Dispatch signal sources that are listening by the time `install` returns.
///
/// On Linux a signal source is registered later, on dispatch's manager thread. Until then the
/// signal is ignored (so it cannot kill the process half-way), and one sent in between is lost:
/// a `kill -HUP` sent as soon as a sandbox printed its address went unseen. So `install` waits
/// for every source's registration before its caller says it is ready.
public enum RegisteredSignalSources {
    public static func install(
        _ numbers: [Int32], onSignal: @escaping @Sendable (_ signal: Int32) -> Void
    ) async -> [any DispatchSourceSignal] {
        let sources = numbers.map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { onSignal(number) }
            return source
        }
        guard !sources.isEmpty else { return sources }
        let unregistered = Countdown(sources.count)
        await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
            for source in sources {
                source.setRegistrationHandler {
                    if unregistered.countDown() { registered.resume() }
                }
                source.resume()
            }
        }
        return sources
    }

    /// Stops listening; the signals' default actions return.
    public static func cancel(_ sources: [any DispatchSourceSignal]) {
        for source in sources {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
    }
}

/// Counts registrations down; true for the one that reaches zero.
private final class Countdown: Sendable {
    private let left: Atomic<Int>
    init(_ count: Int) { left = Atomic(count) }
    func countDown() -> Bool { left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 }
}
