/// A named way of running a provider: the options it sets (as a scenario's `options:` would),
/// and whether `make bench` gives it a row of its own. The soak drives every variant in turn.
public struct ProviderVariant: Sendable, Hashable {
    public var name: String
    public var options: [String: String]
    public var benchmarked: Bool

    public init(_ name: String, options: [String: String], benchmarked: Bool = true) {
        self.name = name
        self.options = options
        self.benchmarked = benchmarked
    }

    /// As `checkout providers --json` lists it.
    var listing: [String: Any] { ["name": name, "options": options, "bench": benchmarked] }
}
