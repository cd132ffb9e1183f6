import Synchronization

/// Every exchange the client makes, in order, with subscribers told of each new one.
/// The HTTP log pane and transcripts subscribe; tests read `entries`. With a `limit` only
/// the newest entries are kept (a screen left running for hours, not recording).
public final class ExchangeLog: Sendable {
    public typealias Subscriber = @Sendable (HTTPExchange) -> Void

    /// Cancels a subscription when asked or when released.
    public final class Subscription: Sendable {
        private let cancelAction: @Sendable () -> Void
        init(cancel: @escaping @Sendable () -> Void) { cancelAction = cancel }
        public func cancel() { cancelAction() }
        deinit { cancelAction() }
    }

    private struct Storage {
        var entries: [HTTPExchange] = []
        /// Exchanges recorded so far, kept or not: the next id.
        var recorded = 0
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriberID = 0
    }

    private let storage = Mutex(Storage())
    public let limit: Int?

    public init(limit: Int? = nil) {
        self.limit = limit.map { max(1, $0) }
    }

    public var entries: [HTTPExchange] { storage.withLock { $0.entries } }

    /// Calls `subscriber` for every exchange recorded from now on.
    public func subscribe(_ subscriber: @escaping Subscriber) -> Subscription {
        let id = storage.withLock { storage in
            storage.nextSubscriberID += 1
            storage.subscribers[storage.nextSubscriberID] = subscriber
            return storage.nextSubscriberID
        }
        return Subscription { [weak self] in
            self?.storage.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
    }

    /// Appends `make(id)` and tells subscribers, outside the lock.
    @discardableResult
    func record(_ make: (Int) -> HTTPExchange) -> HTTPExchange {
        let (exchange, subscribers) = storage.withLock { storage in
            storage.recorded += 1
            let exchange = make(storage.recorded)
            storage.entries.append(exchange)
            if let limit, storage.entries.count > limit { storage.entries.removeFirst(storage.entries.count - limit) }
            return (exchange, storage.subscribers.sorted { $0.key < $1.key }.map(\.value))
        }
        for subscriber in subscribers { subscriber(exchange) }
        return exchange
    }
}
