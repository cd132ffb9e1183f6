import Foundation
import ProviderClients
import Sandbox

/// How a checkout connects: to which provider or sandbox, with which injected faults, and
/// how patiently it retries. Shared by the screen and `checkout run`.
public struct SessionOptions: Sendable {
    public var endpoint: CashAppEndpointOptions
    public var afterpay = AfterpayEndpointOptions()
    /// An already-running sandbox (`checkout sandbox`) to use for every provider.
    public var sandboxURL: String?
    public var faults: [FaultRule]
    /// The back-off base: retry n waits base × (2^n − 1).
    public var retryBaseDelay: Duration
    /// Timings of the embedded sandbox (shorter ones reach refreshing and expiry quickly).
    public var triggerRotationSeconds: Double
    public var requestLifetimeSeconds: Double

    public init(
        endpoint: CashAppEndpointOptions = CashAppEndpointOptions(), sandboxURL: String? = nil,
        faults: [FaultRule] = [], retryBaseDelay: Duration = RetryPolicy.standard.baseDelay,
        triggerRotationSeconds: Double = 30, requestLifetimeSeconds: Double = 3600
    ) {
        self.endpoint = endpoint
        self.sandboxURL = sandboxURL
        self.faults = faults
        self.retryBaseDelay = retryBaseDelay
        self.triggerRotationSeconds = triggerRotationSeconds
        self.requestLifetimeSeconds = requestLifetimeSeconds
    }

    /// Whether this session starts its own sandbox.
    public var usesEmbeddedSandbox: Bool { endpoint.usesEmbeddedSandbox && sandboxURL == nil }

    /// A problem with the options, worded for the user; nil when they are usable.
    public var problem: String? {
        if let sandboxURL {
            guard endpoint.baseURL == nil else {
                return "--sandbox-url and --cashapp-url both say where Cash App Pay is; give one of them"
            }
            guard let url = URL(string: sandboxURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                return "--sandbox-url \(sandboxURL) is not an http(s) URL; give what `checkout sandbox` printed, e.g. http://127.0.0.1:8080"
            }
            return nil
        }
        if let problem = afterpay.problem { return problem }
        if !faults.isEmpty, endpoint.baseURL != nil {
            return "--fault needs a sandbox: drop --cashapp-url, or run `checkout sandbox` and pass --sandbox-url"
        }
        return endpoint.problem
    }
}
