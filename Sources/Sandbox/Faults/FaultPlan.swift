import Synchronization

/// The faults waiting to be injected, shared by every connection of one sandbox.
public final class FaultPlan: Sendable {
    private let rules = Mutex<[FaultRule]>([])

    public init() {}

    public var pending: [FaultRule] { rules.withLock { $0.filter { $0.remaining > 0 } } }

    public func add(_ rule: FaultRule) { rules.withLock { $0.append(rule) } }

    public func clear() { rules.withLock { $0.removeAll() } }

    /// The fault for this request, if one matches; using it counts it down.
    func take(method: String, path: String) -> FaultKind? {
        rules.withLock { rules in
            guard let index = rules.firstIndex(where: { $0.matches(method: method, path: path) }) else { return nil }
            rules[index].remaining -= 1
            return rules[index].kind
        }
    }
}
