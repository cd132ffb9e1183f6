import Synchronization

/// A planned fault and who added it: a checkout's run id, or `FaultPlan.sandboxOwner` for the
/// standing faults of the sandbox itself. Encodes as the rule's fields plus `owner`.
public struct PlannedFault: Codable, Hashable, Sendable {
    public var rule: FaultRule
    public var owner: String

    public init(rule: FaultRule, owner: String) {
        self.rule = rule
        self.owner = owner
    }

    enum CodingKeys: String, CodingKey { case owner }

    public init(from decoder: any Decoder) throws {
        rule = try FaultRule(from: decoder)
        owner = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .owner)
    }

    public func encode(to encoder: any Encoder) throws {
        try rule.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(owner, forKey: .owner)
    }
}

/// The faults waiting to be injected, shared by every connection of one sandbox. Each belongs
/// to an owner, so a checkout can take back what is left of its own faults when it ends.
public final class FaultPlan: Sendable {
    /// The owner of faults added without one: they stay until deleted.
    public static let sandboxOwner = "sandbox"

    private let planned = Mutex<[PlannedFault]>([])
    /// How many rules it holds at most: a client looping on POST cannot grow it without end.
    public let limit: Int

    public init(limit: Int = SandboxLimits.defaultMaxFaults) {
        self.limit = limit
    }

    /// Whether `owner` can name the owner of faults: 1–64 ASCII letters, digits, `-`, `_` or `.`.
    public static func isValidOwner(_ owner: String) -> Bool {
        (1...64).contains(owner.utf8.count)
            && owner.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            }
    }

    /// What an owner must look like, for error messages.
    public static let ownerRule = #"1 to 64 characters, each an ASCII letter, a digit, "-", "_" or ".""#

    /// The rules that still apply to a request, in the order they are tried.
    public var pending: [FaultRule] { pendingWithOwners.map(\.rule) }

    /// The rules that still apply to a request, with who added each.
    public var pendingWithOwners: [PlannedFault] { planned.withLock { $0.filter { $0.rule.remaining > 0 } } }

    /// Adds a rule, unless the plan already holds `limit` of them.
    public func add(_ rule: FaultRule, owner: String = FaultPlan.sandboxOwner) throws(FaultPlanFull) {
        try planned.withLock { (planned) throws(FaultPlanFull) in
            guard planned.count < limit else { throw FaultPlanFull(limit: limit) }
            planned.append(PlannedFault(rule: rule, owner: owner))
        }
    }

    /// Drops every rule `owner` added; answers how many of them were still pending.
    @discardableResult
    public func remove(owner: String) -> Int {
        planned.withLock { planned in
            let pending = planned.count { $0.owner == owner && $0.rule.remaining > 0 }
            planned.removeAll { $0.owner == owner }
            return pending
        }
    }

    /// Drops every rule; answers how many were still pending.
    @discardableResult
    public func clear() -> Int {
        planned.withLock { planned in
            let pending = planned.count { $0.rule.remaining > 0 }
            planned.removeAll()
            return pending
        }
    }

    /// The fault for this request, if one matches; using it counts it down. A checkout's faults
    /// hit only requests naming its run (`SandboxRunHeader`), so checkouts sharing a sandbox
    /// never get each other's; the sandbox's own faults hit every request.
    func take(method: String, path: String, run: String?) -> FaultKind? {
        planned.withLock { planned in
            guard
                let index = planned.firstIndex(where: {
                    ($0.owner == Self.sandboxOwner || $0.owner == run) && $0.rule.matches(method: method, path: path)
                })
            else { return nil }
            let kind = planned[index].rule.kind
            planned[index].rule.remaining -= 1
            // A used-up rule is dropped, so it no longer counts against the limit.
            if planned[index].rule.remaining <= 0 { planned.remove(at: index) }
            return kind
        }
    }
}

/// The fault plan already holds as many rules as it may.
public struct FaultPlanFull: Error, Hashable, Sendable, CustomStringConvertible {
    public let limit: Int
    public var description: String {
        "the sandbox already holds \(limit) faults, its limit (--max-faults); DELETE /sandbox/faults to make room"
    }
}
