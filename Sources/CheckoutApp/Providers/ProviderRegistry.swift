import PaymentFlow
import Sandbox

/// The providers this build offers, in the payment pane's order. Adding a provider is its own
/// folders plus one line in `builtIn`.
public struct ProviderRegistry: Sendable {
    public static let builtIn = ProviderRegistry([
        .cashApp,
        .afterpay,
        .adyen,
        .square,
        .antom,
        .wallet,
    ])

    public let descriptors: [ProviderDescriptor]
    /// Every provider's command-line options, each flag once: a flag two providers share (Square's
    /// and the wallet's `--card`) is the first one's, whose help names both. Worked out once: the
    /// command line and the session's defaults both ask.
    public let options: [ProviderOption]

    public init(_ descriptors: [ProviderDescriptor]) {
        self.descriptors = descriptors
        var seen = Set<String>()
        options = descriptors.flatMap(\.options).filter { seen.insert($0.flag).inserted }
    }

    /// The registry with one more provider (tests add theirs this way).
    public func adding(_ descriptor: ProviderDescriptor) -> ProviderRegistry {
        ProviderRegistry(descriptors + [descriptor])
    }

    public var ids: [String] { descriptors.map(\.id) }

    /// The registry with only these providers, in its own order (a profile's `providers:`); all when nil.
    public func restricted(to ids: [String]?) -> ProviderRegistry {
        guard let ids else { return self }
        return ProviderRegistry(descriptors.filter { ids.contains($0.id) })
    }

    /// The provider checkouts use when none is named.
    public var defaultProvider: ProviderDescriptor { descriptors[0] }

    public func descriptor(_ id: String) -> ProviderDescriptor? {
        descriptors.first { $0.id == id }
    }

    /// A provider named by the user (`--provider`, a scenario's `provider:`), or why not.
    public func resolve(_ spelling: String) throws(UnknownProvider) -> ProviderDescriptor {
        guard let descriptor = descriptor(spelling) else { throw UnknownProvider(spelling: spelling, known: ids) }
        return descriptor
    }

    /// Every phase a checkout can report: the providers' steps, then how settlement ends.
    public var phaseNames: [String] {
        var names: [String] = []
        for step in descriptors.flatMap(\.method.steps) where !names.contains(step) { names.append(step) }
        return names + ["completed", "settlementFailed"]
    }

    /// The providers' own subcommands of `checkout`, in the registry's order.
    public var commands: [ProviderCommand] { descriptors.flatMap(\.commands) }

    /// The payment pane's methods, in order.
    public var paymentMethods: [PaymentMethod] { descriptors.map(\.method) }

    /// Settings for a sandbox this process starts, as the providers' options ask.
    public func sandboxSettings(_ settings: SandboxSettings, options: ProviderOptionValues) -> SandboxSettings {
        var settings = settings
        for descriptor in descriptors { descriptor.configureSandbox(options, &settings) }
        return settings
    }

    /// Each provider's side of a new sandbox with `settings`, and the sides they depend on.
    public func sandboxProviders(_ settings: SandboxSettings) async -> [any SandboxProvider] {
        var assembly = SandboxAssembly(settings: settings)
        for descriptor in descriptors {
            let made = await descriptor.makeSandbox(&assembly)
            assembly.serve(made)
        }
        return assembly.providers
    }
}

/// A provider id the registry does not know, with the ones it does.
public struct UnknownProvider: Error, Hashable, Sendable, CustomStringConvertible {
    public let spelling: String
    public let known: [String]
    public var description: String {
        "\"\(spelling)\" is not a provider; use one of \(known.joined(separator: ", "))"
    }
}
