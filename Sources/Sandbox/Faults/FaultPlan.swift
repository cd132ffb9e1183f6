import Foundation

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

/// The faults waiting to be injected, shared by every connection of one sandbox (and, on a shared
/// store, by every instance: they are kept in the sandbox's store, "sandbox.faults"). Each belongs
/// to an owner, so a checkout can take back what is left of its own faults when it ends.
public final class FaultPlan: Sendable {
    /// The owner of faults added without one: they stay until deleted.
    public static let sandboxOwner = "sandbox"

    /// One planned fault as the store keeps it, in the order added. It holds one of the plan's
    /// `limit` slots as a claim, so the store itself (a unique claim, in a database one row of
    /// its claims table) keeps racing adds on several instances to the limit. Rules kept before
    /// slots existed have none and count against the limit only when it is checked.
    struct Kept: StoredRecord, Codable, Equatable {
        let id: String
        var slot: Int?
        var planned: PlannedFault

        var storeKey: String { id }
        var storeClaims: [String] { slot.map { ["slot-\($0)"] } ?? [] }
    }

    private let planned: ProviderStore<Kept>
    /// How many rules it holds at most: a client looping on POST cannot grow it without end.
    public let limit: Int
    /// On a shared store, what the rules were a moment ago (nil in memory, where reading them is
    /// a lock away).
    private let sharedView: SharedFaultView<Kept>?
    /// How long a shared sandbox's instance trusts the rules it read, and so how long an add waits.
    static let sharedViewLifetime: Duration = .milliseconds(100)

    /// A plan of its own, in memory.
    public convenience init(limit: Int = SandboxLimits.defaultMaxFaults) {
        self.init(limit: limit, storage: MemoryStorage())
    }

    init(limit: Int, storage: any SandboxStorage) {
        self.limit = limit
        planned = ProviderStore("sandbox.faults", in: storage)
        sharedView = storage is MemoryStorage ? nil : SharedFaultView(lifetime: Self.sharedViewLifetime)
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
    public var pending: [FaultRule] { get async throws { try await pendingWithOwners.map(\.rule) } }

    /// The rules that still apply to a request, with who added each.
    public var pendingWithOwners: [PlannedFault] {
        get async throws { try await planned.records().map(\.planned).filter { $0.rule.remaining > 0 } }
    }

    /// Adds a rule, unless the plan already holds `limit` of them (`FaultPlanFull`); a store
    /// failure is thrown as `SandboxStoreUnavailable`. The rule takes a free slot; a slot another
    /// add (here or on another instance) took first is skipped, and the plan is read again when
    /// every slot it saw free was taken meanwhile.
    public func add(_ rule: FaultRule, owner: String = FaultPlan.sandboxOwner) async throws {
        let fault = PlannedFault(rule: rule, owner: owner)
        while true {
            let kept = try await planned.records()
            guard kept.count < limit else { throw FaultPlanFull(limit: limit) }
            let held = Set(kept.compactMap(\.slot))
            for slot in 0..<limit where !held.contains(slot) {
                let new = Kept(id: SandboxIDs.make("FLT_", length: 16), slot: slot, planned: fault)
                let made = try await planned.create(requiring: new.storeClaims, at: StoreMoment(now: .distantPast)) { _ in new }
                if case .created = made {
                    await sharedView?.settle()
                    return
                }
            }
        }
    }

    /// Drops every rule `owner` added; answers how many of them were still pending.
    @discardableResult
    public func remove(owner: String) async throws -> Int {
        try await remove { $0.owner == owner }
    }

    /// Drops every rule; answers how many were still pending.
    @discardableResult
    public func clear() async throws -> Int {
        try await remove { _ in true }
    }

    private func remove(where chosen: @escaping (PlannedFault) -> Bool) async throws(SandboxStoreUnavailable) -> Int {
        var pending = 0
        for kept in try await planned.records() where chosen(kept.planned) {
            if let gone = try await planned.remove(kept.id, if: { chosen($0.planned) }), gone.planned.rule.remaining > 0 { pending += 1 }
        }
        return pending
    }

    /// The fault for this request, if one matches; using it counts it down, inside the store's
    /// update (so two instances never both use a rule's last count). A checkout's faults hit only
    /// requests naming its run (`SandboxRunHeader`), so checkouts sharing a sandbox never get each
    /// other's; the sandbox's own faults hit every request.
    func take(method: String, path: String, run: String?) async throws(SandboxStoreUnavailable) -> FaultKind? {
        func matches(_ planned: PlannedFault) -> Bool {
            (planned.owner == Self.sandboxOwner || planned.owner == run) && planned.rule.matches(method: method, path: path)
        }
        // A shared sandbox's recent copy of the list names the first candidate (or says there
        // is none); the take itself is exact, and a candidate gone since is looked up again.
        var seen: Kept?
        if let sharedView {
            let recent = try await sharedView.faults { () async throws(SandboxStoreUnavailable) in try await planned.records() }
            guard let candidate = recent.first(where: { matches($0.planned) }) else { return nil }
            seen = candidate
        }
        while true {
            let match: Kept
            if let candidate = seen {
                match = candidate
                seen = nil
            } else {
                guard let found = try await planned.records().first(where: { matches($0.planned) }) else { return nil }
                match = found
            }
            let taken = try await planned.update(.key(match.id)) { kept -> (kind: FaultKind, left: Int)? in
                guard matches(kept.planned) else { return nil }
                kept.planned.rule.remaining -= 1
                return (kept.planned.rule.kind, kept.planned.rule.remaining)
            }
            // Used up or removed since it was read: look again.
            guard case .changed(let used?) = taken else { continue }
            // A used-up rule is dropped, so it no longer counts against the limit.
            if used.left <= 0 { _ = try await planned.remove(match.id) { $0.planned.rule.remaining <= 0 } }
            return used.kind
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
