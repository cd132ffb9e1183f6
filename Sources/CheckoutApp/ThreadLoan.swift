import Dispatch
import Synchronization

/// A thread lent to blocking work, one job at a time. `checkout`'s main thread has nothing to do
/// while the command runs on the cooperative pool, so the screen's loop runs there (`main`)
/// instead of on a thread made for it: a third of a millisecond before the first frame, on two cores.
public final class ThreadLoan: Sendable {
    /// The process's main thread, once `checkout`'s entry accepts jobs and serves them.
    public static let main = ThreadLoan()

    private struct State {
        var accepting = false
        var busy = false
        var job: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    /// Signalled once for each job lent and once for the end.
    private let wake = DispatchSemaphore(value: 0)

    init() {}

    /// Jobs lent from now on (until `finish()`) wait for `serve()`.
    public func acceptJobs() {
        state.withLock { $0.accepting = true }
    }

    /// Runs the jobs lent, one at a time, on the calling thread until `finish()`.
    public func serve() {
        while true {
            wake.wait()
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                defer { state.job = nil }
                return state.job
            }
            guard let job else { return }
            job()
            state.withLock { $0.busy = false }
        }
    }

    /// Ends `serve()` once the job it runs (if any) is done; no job is taken after this.
    public func finish() {
        state.withLock { $0.accepting = false }
        wake.signal()
    }

    /// Hands `job` to the serving thread; false (and nothing done) when it takes no jobs or is
    /// busy with one, so the caller runs it elsewhere.
    func lend(_ job: @escaping @Sendable () -> Void) -> Bool {
        let lent = state.withLock { state -> Bool in
            guard state.accepting, !state.busy else { return false }
            state.job = job
            state.busy = true
            return true
        }
        if lent { wake.signal() }
        return lent
    }
}
