import Foundation

/// A provider as `checkout providers --json` lists it: what the soak needs to drive it. Every
/// registered provider joins the soak through this listing, with no soak code of its own.
struct SoakProvider: Decodable, Sendable {
    let id: String
    let endpoints: [String]
    let settles: Bool
    let customerBehaviours: [String]
    /// Its named ways of running (Adyen's flows, Cash App Pay's on-file payments), as the options
    /// each sets; the soak takes turns.
    var variants: [SoakVariant]? = nil

    enum CodingKeys: String, CodingKey {
        case id, endpoints, settles, variants
        case customerBehaviours = "customer_behaviours"
    }
}

/// One of a provider's variants as the listing gives it.
struct SoakVariant: Decodable, Sendable, Hashable {
    let name: String
    let options: [String: String]
}

/// One checkout of the soak: its provider, customer, faults and the reference that finds it in
/// the sandbox's ledger.
struct SoakCheckout: Sendable {
    let index: Int
    let provider: SoakProvider
    let customer: String
    let faults: [String]
    let reference: String
    /// Seconds `checkout run --timeout` waits for a decision.
    let timeout: Int
    /// The provider's variant this checkout runs, when it has several.
    var variant: SoakVariant? = nil

    /// The scenario file `checkout run` reads (JSON is YAML too).
    var scenario: [String: Any] {
        var scenario: [String: Any] = ["name": "soak \(index)", "provider": provider.id, "customer": customer, "faults": faults, "reference_id": reference]
        if let options = variant?.options, !options.isEmpty { scenario["options"] = options }
        return scenario
    }

    var summary: String {
        let options = variant?.options ?? [:]
        return "\(provider.id)\(variant.map { " (\($0.name))" } ?? ""), customer \(customer), faults [\(faults.joined(separator: "; "))]"
            + (options.isEmpty ? "" : ", options " + options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }
}

/// Draws the checkouts of a soak from its seed: the same seed, the same checkouts.
enum SoakPlan {
    static func checkouts(count: Int, seed: UInt64, providers: [SoakProvider]) -> [SoakCheckout] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let provider = providers[Int.random(in: 0..<providers.count, using: &random)]
            let customer = customer(for: provider, &random)
            let faultCount = random.weighted([(0, 5), (1, 3), (2, 2)])
            let faults = (0..<faultCount).map { _ in fault(on: provider, &random) }
            // Variants take turns by index, so the seed's draws stay as they were.
            let variants = provider.variants ?? []
            return SoakCheckout(
                index: index, provider: provider, customer: customer, faults: faults,
                reference: "soak-\(seed)-\(index)", timeout: customer == "none" ? 2 : 60,
                variant: variants.isEmpty ? nil : variants[index % variants.count])
        }
    }

    private static func customer(for provider: SoakProvider, _ random: inout SeededGenerator) -> String {
        let offered = Set(provider.customerBehaviours)
        let choices: [(String, Int)] = [("approve", 12), ("decline", 4), ("approve-after", 3), ("none", 1)].filter { offered.contains($0.0) }
        let behaviour = random.weighted(choices)
        return behaviour == "approve-after" ? "approve-after 0.\(Int.random(in: 1...5, using: &random))" : behaviour
    }

    /// A fault on one of the provider's endpoints: `POST /v2/payments/capture reset*2`.
    private static func fault(on provider: SoakProvider, _ random: inout SeededGenerator) -> String {
        let endpoint = provider.endpoints[Int.random(in: 0..<provider.endpoints.count, using: &random)]
        let parts = endpoint.split(separator: " ", maxSplits: 1).map(String.init)
        let path = parts[1].split(separator: "{", maxSplits: 1).first.map(String.init) ?? parts[1]
        let kind = random.weighted([
            ("500", 3), ("503", 3), ("504", 2), ("429", 2), ("reset", 4), ("malformed", 2), ("slow", 1), ("timeout", 1),
        ])
        let times = random.weighted([(1, 6), (2, 3), (3, 1)])
        return "\(parts[0]) \(path) \(kind)*\(times)"
    }
}
