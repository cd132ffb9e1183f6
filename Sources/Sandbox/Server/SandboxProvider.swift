import Hummingbird

/// One provider's side of the sandbox: its routes, and the error body its injected faults
/// answer with. The provider registry hands the server one per provider.
public protocol SandboxProvider: Sendable {
    /// The registry id (`cashapp`, `afterpay`, …).
    var id: String { get }
    /// Where it is served, for `checkout sandbox`'s banner: "Afterpay under /v2/".
    var summary: String { get }
    /// Paths whose injected faults answer in this provider's error shape.
    var pathPrefixes: [String] { get }
    func register(on router: Router<SandboxRequestContext>, core: SandboxCore)
    /// An injected fault's answer, in this provider's error shape.
    func faultResponse(_ fault: InjectedFault) -> Response
    /// The simulated customer approves or declines attempt `id`; nil when the id is not this
    /// provider's (the next provider is asked).
    func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) -> Response?
}

extension SandboxProvider {
    /// Providers whose customer acts on another provider's attempts (Afterpay's are Cash App
    /// requests) leave this out.
    public func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) -> Response? { nil }
}

/// What every provider's routes share: the settings and clock, and the customer requests the
/// simulated customer approves or declines.
public struct SandboxCore: Sendable {
    public let settings: SandboxSettings
    public let customerRequests: CustomerRequestStore
}

/// An error answer the fault plan asks for, before the provider's shape is put on it.
public struct InjectedFault: Sendable {
    public let kind: FaultKind
    public let status: HTTPResponse.Status
    /// Cash App-style category and code (RATE_LIMIT_ERROR, SERVICE_UNAVAILABLE, …).
    public let category: String
    public let code: String
    public let detail: String
}
