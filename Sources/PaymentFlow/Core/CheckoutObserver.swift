/// Told of every state transition and phase, in order. Held weakly by `CheckoutRunner`.
public protocol CheckoutObserver: AnyObject, Sendable {
    func stateDidChange(to state: CheckoutState)
    /// A provider step began, or the settlement ended.
    func phaseDidChange(to phase: CheckoutPhase)
    /// The attempt changed while the state stayed the same (e.g. its link rotated while polling).
    func attemptDidChange(_ attempt: PaymentAttempt)
}

extension CheckoutObserver {
    public func phaseDidChange(to phase: CheckoutPhase) {}
    public func attemptDidChange(_ attempt: PaymentAttempt) {}
}

/// Weak references to observers in the order they were added.
struct ObserverList: Sendable {
    private struct Entry: Sendable { weak var observer: (any CheckoutObserver)? }
    private var entries: [Entry] = []

    mutating func add(_ observer: any CheckoutObserver) {
        guard !entries.contains(where: { $0.observer === observer }) else { return }
        entries.append(Entry(observer: observer))
    }

    mutating func remove(_ observer: any CheckoutObserver) {
        entries.removeAll { $0.observer == nil || $0.observer === observer }
    }

    /// The observers still alive, dropping released ones.
    mutating func live() -> [any CheckoutObserver] {
        entries.removeAll { $0.observer == nil }
        return entries.compactMap(\.observer)
    }
}
