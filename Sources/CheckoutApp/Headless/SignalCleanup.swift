import Dispatch
import Foundation

/// On SIGINT, SIGTERM or SIGHUP runs a clean-up (e.g. removing a run's faults from a shared
/// sandbox), then exits with 128 + the signal, as the shell expects.
final class SignalCleanup {
    private let sources: [any DispatchSourceSignal]

    private init(sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }

    static func install(_ cleanup: @escaping @Sendable () async -> Void) -> SignalCleanup {
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Task {
                    await cleanup()
                    exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        return SignalCleanup(sources: sources)
    }

    /// Stops listening; the signals' default actions return.
    func cancel() {
        for source in sources {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
    }
}
