import Synchronization

/// Counts a server's open connections against its cap.
final class ConnectionGate: Sendable {
    let limit: Int
    private let open = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection in; false when it is over the cap. It counts until `release()`
    /// either way, so the count always matches the sockets that are open.
    func admit() -> Bool {
        open.withLock { count in
            count += 1
            return count <= limit
        }
    }

    func release() {
        open.withLock { $0 -= 1 }
    }

    /// Connections open now, those over the cap included until they are closed.
    var count: Int { open.withLock { $0 } }
}
