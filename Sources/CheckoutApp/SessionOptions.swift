import Foundation
import ProviderClients
import Sandbox

/// How a checkout connects: to which providers or sandbox, with which injected faults, and
/// how patiently it retries. Shared by the screen and `checkout run`.
public struct SessionOptions: Sendable {
    /// The providers on offer; `checkout` uses the built-in registry, tests add their own.
    public var registry: ProviderRegistry
    /// Values of the providers' options (`--cashapp-url`, `--client-id`, …), environment included.
    public var providerOptions: ProviderOptionValues
    /// An already-running sandbox (`checkout sandbox`) to use for every provider.
    public var sandboxURL: String?
    /// The control token that shared sandbox wants on its /sandbox/ routes (`--sandbox-token-file`,
    /// the profile's `sandbox_control_token`, CHECKOUT_SANDBOX_CONTROL_TOKEN); never printed.
    public var sandboxControlToken: String?
    public var faults: [FaultRule]
    /// The back-off base: retry n waits base × (2^n − 1).
    public var retryBaseDelay: Duration
    /// Timings of the embedded sandbox (shorter ones reach refreshing and expiry quickly).
    public var triggerRotationSeconds: Double
    public var requestLifetimeSeconds: Double
    /// Which bundled catalog the cart comes from: USD, THB or IDR (`--currency`).
    public var currency: String = Defaults.currency
    /// The profile these options came from (`--profile`), for the title bar.
    public var profileName: String?
    /// What the embedded sandbox keeps: its stored requests and journal entries
    /// (`checkout demo` keeps a loop's worth; see `SandboxLimits.demoLoop`).
    public var embeddedSandboxLimits = SandboxLimits()

    /// What the flags default to; the flags' declarations and `checkout` without arguments
    /// (`TerminalCheckoutOptions.defaults`) both read these.
    public enum Defaults {
        public static let retryBaseMilliseconds = 2000
        public static let triggerRotationSeconds = 30.0
        public static let requestLifetimeSeconds = 3600.0
        public static let currency = "USD"
        public static let authorizationTimeoutSeconds = 300
    }

    public init(
        registry: ProviderRegistry = .builtIn, providerOptions: ProviderOptionValues = ProviderOptionValues(), sandboxURL: String? = nil,
        faults: [FaultRule] = [], retryBaseDelay: Duration = RetryPolicy.standard.baseDelay,
        triggerRotationSeconds: Double = 30, requestLifetimeSeconds: Double = 3600
    ) {
        self.registry = registry
        self.providerOptions = providerOptions
        self.sandboxURL = sandboxURL
        self.faults = faults
        self.retryBaseDelay = retryBaseDelay
        self.triggerRotationSeconds = triggerRotationSeconds
        self.requestLifetimeSeconds = requestLifetimeSeconds
    }

    /// The providers pointed at their real hosts rather than a sandbox.
    public var realProviders: [ProviderDescriptor] {
        registry.descriptors.filter { $0.pointsAtRealProvider(providerOptions) }
    }

    /// Whether this session starts its own sandbox: unless one is shared, or every provider is real.
    public var usesEmbeddedSandbox: Bool {
        sandboxURL == nil && realProviders.count < registry.descriptors.count
    }

    /// A problem with the options, worded for the user; nil when they are usable.
    public var problem: String? {
        if let sandboxURL {
            if let real = realProviders.first {
                return "--sandbox-url and --\(real.options.first?.flag ?? real.id) both say where \(real.method.label) is; give one of them"
            }
            guard ProviderOptionValues.isWebURL(sandboxURL) else {
                return "--sandbox-url \(sandboxURL) is not an http(s) URL with a host (and a port from 1 to 65535); give what `checkout sandbox` printed, e.g. http://127.0.0.1:8080"
            }
            return nil
        }
        for descriptor in registry.descriptors {
            if let problem = descriptor.optionProblem(providerOptions) { return problem }
        }
        if !faults.isEmpty, let real = realProviders.first {
            let flag = real.options.first.map { "--\($0.flag)" } ?? real.id
            return "--fault needs a sandbox: drop \(flag), or run `checkout sandbox` and pass --sandbox-url"
        }
        return nil
    }
}
