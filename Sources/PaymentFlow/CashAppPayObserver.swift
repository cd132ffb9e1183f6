import ProviderWire

/// Told of every state transition, in order. Held weakly by `CashAppPay`.
public protocol CashAppPayObserver: AnyObject, Sendable {
    func stateDidChange(to state: CashAppPayState)
    /// The request changed while the state stayed the same (e.g. triggers rotated while polling).
    func requestDidChange(_ request: CustomerRequest)
}

extension CashAppPayObserver {
    public func requestDidChange(_ request: CustomerRequest) {}
}

/// Weak references to observers in the order they were added.
struct ObserverList: Sendable {
    private struct Entry: Sendable { weak var observer: (any CashAppPayObserver)? }
    private var entries: [Entry] = []

    mutating func add(_ observer: any CashAppPayObserver) {
        guard !contains(observer) else { return }
        entries.append(Entry(observer: observer))
    }

    mutating func remove(_ observer: any CashAppPayObserver) {
        entries.removeAll { $0.observer == nil || $0.observer === observer }
    }

    /// The observers still alive, dropping released ones.
    mutating func live() -> [any CashAppPayObserver] {
        entries.removeAll { $0.observer == nil }
        return entries.compactMap(\.observer)
    }

    private func contains(_ observer: any CashAppPayObserver) -> Bool {
        entries.contains { $0.observer === observer }
    }
}
