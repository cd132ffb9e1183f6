import Foundation
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
    /// The server's own refusal (a method the path does not answer), in this provider's error shape.
    func refusalResponse(_ refusal: SandboxRefusal) -> Response
    /// The simulated customer approves or declines attempt `id`; nil when the id is not this
    /// provider's (the next provider is asked).
    func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) -> Response?
    /// Paths it owns by pattern rather than prefix (Adyen's `/v<digits>/`), asked only when no
    /// provider's `pathPrefixes` match, so a prefix (Afterpay's `/v2/`) always wins.
    func claims(path: String) -> Bool
    /// Its sections of `GET /sandbox/ledger` (Afterpay's `captures`, Adyen's `adyen_payments`, …).
    func ledgerSections(now: Date, limits: SandboxLimits) -> [SandboxLedgerSection]
}

extension SandboxProvider {
    /// Providers without an error shape of their own answer in the sandbox's (Cash App's list).
    public func refusalResponse(_ refusal: SandboxRefusal) -> Response { SandboxResponse.sandboxRefusal(refusal) }

    /// Providers whose customer acts on another provider's attempts (Afterpay's are Cash App
    /// requests) leave this out.
    public func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) -> Response? { nil }

    public func claims(path: String) -> Bool { false }

    public func ledgerSections(now: Date, limits: SandboxLimits) -> [SandboxLedgerSection] { [] }
}

/// One named list of `GET /sandbox/ledger`: the rows proving what money moved.
public struct SandboxLedgerSection: Sendable {
    public let name: String
    public let rows: any Encodable & Sendable

    public init(name: String, rows: any Encodable & Sendable) {
        self.name = name
        self.rows = rows
    }
}

/// What every provider's routes share: the settings and clock, and the customer requests the
/// simulated customer approves or declines.
public struct SandboxCore: Sendable {
    public let settings: SandboxSettings
    public let customerRequests: CustomerRequestStore
    /// Where providers send their webhooks: every receiver registered at `/sandbox/webhooks`.
    public let webhooks: WebhookDispatcher
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

/// An error the server answers before any route runs, before the provider's shape is put on it.
public struct SandboxRefusal: Sendable {
    public let status: HTTPResponse.Status
    /// Cash App-style category and code; Afterpay's error code is the code in lower case.
    public let category: String
    public let code: String
    public let detail: String

    /// A method the path does not answer: 405, naming the ones it does.
    static func methodNotAllowed(_ method: HTTPRequest.Method, path: String, allowed: [String]) -> SandboxRefusal {
        SandboxRefusal(
            status: .methodNotAllowed, category: "INVALID_REQUEST_ERROR", code: "METHOD_NOT_ALLOWED",
            detail: "\(method.rawValue) is not allowed on \(path); use \(allowed.joined(separator: " or ")).")
    }
}

extension Array where Element == any SandboxProvider {
    /// The provider that serves `path`, whose error shape answers for it.
    func owner(of path: String) -> (any SandboxProvider)? {
        first { provider in provider.pathPrefixes.contains { path.hasPrefix($0) } } ?? first { $0.claims(path: path) }
    }
}
