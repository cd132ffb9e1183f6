import Synchronization

/// How often the due-time worker asks the store: every tick (100 ms) while the sandbox serves
/// requests, once a second after it has served none for a while. A team sandbox on a database
/// sits idle for hours between checkouts, and its rounds were 30 transactions a second each,
/// forever; a request ends the idling at the next tick, so what it set going is applied on time.
final class DueWorkCadence: Sendable {
    /// Quiet this long (no request served) and the worker idles.
    let idleAfter: Duration
    /// Time between two rounds while idle.
    let idleInterval: Duration
    /// When a request was last served and a round last ran (ticks of `ContinuousClock` since `origin`).
    private let lastServed: Atomic<Int64>
    private let lastRound = Mutex<Int64?>(nil)
    private let origin = ContinuousClock.now

    init(idleAfter: Duration = .seconds(5), idleInterval: Duration = .seconds(1)) {
        self.idleAfter = idleAfter
        self.idleInterval = idleInterval
        lastServed = Atomic(0)  // as if one was served at start: the worker starts awake
    }

    /// A request was served (one atomic store on every request's path).
    func served(at instant: ContinuousClock.Instant = .now) {
        lastServed.store(Self.milliseconds(instant - origin), ordering: .relaxed)
    }

    /// Whether a round is due at this tick; when it is, the round counts as run.
    func roundDue(at instant: ContinuousClock.Instant = .now) -> Bool {
        let now = Self.milliseconds(instant - origin)
        let quiet = now - lastServed.load(ordering: .relaxed)
        return lastRound.withLock { last in
            if quiet >= Self.milliseconds(idleAfter), let previous = last, now - previous < Self.milliseconds(idleInterval) {
                return false
            }
            last = now
            return true
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
