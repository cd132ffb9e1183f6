/// Makes one sandbox's provider sides in the registry's order. A side that depends on another's
/// (Afterpay's and Adyen's on Cash App's requests) asks for it by type and is handed the one made
/// already, or a new one, which the sandbox then serves too: each side is made and served once.
public struct SandboxAssembly: Sendable {
    public let settings: SandboxSettings
    /// The sides made so far, in the order made.
    public private(set) var providers: [any SandboxProvider] = []

    public init(settings: SandboxSettings) {
        self.settings = settings
    }

    /// Serves `provider`, unless a side with its id is served already (one made as a dependency).
    public mutating func serve(_ provider: any SandboxProvider) {
        guard !providers.contains(where: { $0.id == provider.id }) else { return }
        providers.append(provider)
    }

    /// The side of type `P`: the one made already, else `make`'s, which is then served.
    public mutating func provider<P: SandboxProvider>(_ make: (SandboxSettings) async -> P) async -> P {
        // A plain loop: a lazy sequence's generic `first` looked up its index type by name at
        // run time, a scan of every conformance in the binary (a tenth of a millisecond).
        for case let made as P in providers { return made }
        let made = await make(settings)
        providers.append(made)
        return made
    }
}
