import Synchronization

/// What a shared store's fault list held a moment ago, so a request on an instance of a shared
/// sandbox asks the database about faults only when one may apply, not on every request.
///
/// Exact across instances by time, not by messages: a view is used for `lifetime` from the
/// moment its read was sent, and an add is answered only `lifetime` after it committed
/// (`settle`). So every view read before the add has expired by the time anyone hears of it,
/// and a request sent after that, to any instance, sees the new fault. A view may still list a
/// fault that is used up or removed: that only sends the request to the store's exact take.
final class SharedFaultView<Fault: Sendable>: Sendable {
    private struct Loaded {
        let faults: [Fault]
        /// When its read was sent: what committed before then is in it.
        let askedAt: ContinuousClock.Instant
    }

    let lifetime: Duration
    private let loaded = Mutex<Loaded?>(nil)

    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// The view, read again through `read` when the last one is `lifetime` old.
    func faults<Failure: Error>(read: () async throws(Failure) -> [Fault]) async throws(Failure) -> [Fault] {
        let now = ContinuousClock.now
        if let current = loaded.withLock({ $0 }), now < current.askedAt + lifetime { return current.faults }
        let faults = try await read()
        loaded.withLock { current in
            // A read that was sent earlier and answered later must not replace a newer one.
            if current.map({ $0.askedAt < now }) ?? true { current = Loaded(faults: faults, askedAt: now) }
        }
        return faults
    }

    /// After this instance added a fault: its own view is read again at once, and the add is
    /// answered once every other instance's view from before it has expired.
    func settle() async {
        loaded.withLock { $0 = nil }
        try? await Task.sleep(for: lifetime)
    }
}
