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
    func register(on router: some RouterMethods<SandboxRequestContext>, core: SandboxCore)
    /// An injected fault's answer, in this provider's error shape.
    func faultResponse(_ fault: InjectedFault) -> Response
    /// The server's own refusal (a method the path does not answer), in this provider's error shape.
    func refusalResponse(_ refusal: SandboxError) -> Response
    /// The simulated customer approves or declines attempt `id`; nil when the id is not this
    /// provider's (the next provider is asked).
    func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) async throws -> Response?
    /// The simulated customer leaves attempt `id`'s page unpaid (Antom: the session then
    /// expires unpaid); nil when the id is not this provider's or it has no such page.
    func customerAbandons(_ id: String, request: Request, core: SandboxCore) async throws -> Response?
    /// Paths it owns by pattern rather than prefix (Adyen's `/v<digits>/`), asked only when no
    /// provider's `pathPrefixes` match, so a prefix (Afterpay's `/v2/`) always wins.
    func claims(path: String) -> Bool
    /// Its sections of `GET /sandbox/ledger` (derived from its records as they are now) (Afterpay's `captures`, Adyen's `adyen_payments`, …).
    func ledgerSections(now: Date, limits: SandboxLimits) async throws -> [SandboxLedgerSection]
    /// Every time money moved, once per movement: the ledger's `charges` section, which lets a
    /// checker (the soak) count charges per reference without knowing any provider's rows.
    func charges(now: Date) async throws -> [SandboxCharge]
    /// Whether `request` is this provider's although another provider's route may answer its path
    /// (Square's `GET /v2/payments/{id}` beside Afterpay's `GET /v2/payments/{reference}`, told
    /// apart by Square's Bearer token). A claimed request is answered by `answer(claimed:context:)`
    /// after the fault plan, whichever route the router picked, and its faults take this
    /// provider's error shape.
    func claims(_ request: Request) async throws -> Bool
    /// Whether it claims any request by more than its path (`claims(_:)` is asked of it at all):
    /// every other provider is passed over at no cost on each request.
    var claimsRequests: Bool { get }
    /// The answer to a request `claims` took.
    func answer(claimed request: Request, context: SandboxRequestContext) async throws -> Response
    /// How the card tokens it issues are read (a device wallet's), for the processors' sides
    /// that are paid with them (`SandboxCore.cardTokens`); nil when it issues none.
    var cardTokens: (any CardTokenReader)? { get }
    /// Its routes under `/sandbox/` a customer opens (its pages, their images and buttons), which
    /// stay open when the sandbox has a control token: whoever holds the link gets in, as its own
    /// per-request secret allows. Every other `/sandbox/` route needs the token.
    var customerRoutes: [SandboxOpenRoute] { get }
    /// Applies what time changed that someone must hear of without asking (a notification a
    /// change sends): the sandbox's due-time worker (`SandboxDueWork`) calls it a few times a
    /// second. Each change is applied in its store's unit of work, so exactly once whichever
    /// instance sees it due first. Changes nobody is told of are left to be settled on read.
    func applyDue(now: Date) async throws
}

extension SandboxProvider {
    /// Providers without an error shape of their own answer in the sandbox's own error list.
    public func refusalResponse(_ refusal: SandboxError) -> Response { refusal.response }

    /// Providers whose customer acts on another provider's attempts (Afterpay's are Cash App
    /// requests) leave this out.
    public func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) -> Response? { nil }

    public func customerAbandons(_ id: String, request: Request, core: SandboxCore) -> Response? { nil }

    public func claims(path: String) -> Bool { false }

    public func applyDue(now: Date) async throws {}

    public func ledgerSections(now: Date, limits: SandboxLimits) -> [SandboxLedgerSection] { [] }

    public func charges(now: Date) -> [SandboxCharge] { [] }

    public func claims(_ request: Request) -> Bool { false }

    public var claimsRequests: Bool { false }

    public var cardTokens: (any CardTokenReader)? { nil }

    public var customerRoutes: [SandboxOpenRoute] { [] }

    public func answer(claimed request: Request, context: SandboxRequestContext) async -> Response {
        SandboxError(.notFound, "NOT_FOUND", "No route answers \(request.uri.path.prefix(128)).").response
    }
}

/// Money that moved once (a capture, an authorisation, a completed or approved payment): the rows
/// of the ledger's `charges` section, the same for every provider.
public struct SandboxCharge: Codable, Hashable, Sendable {
    /// The registry id of the provider that moved it.
    public let provider: String
    /// The provider's id for it (Afterpay's token, Adyen's pspReference, Square's payment id).
    public let id: String
    /// The merchant's reference for the order, when the request carried one.
    public let reference: String?
    /// Minor units.
    public let amount: Int
    public let currency: String

    public init(provider: String, id: String, reference: String?, amount: Int, currency: String) {
        self.provider = provider
        self.id = id
        self.reference = reference
        self.amount = amount
        self.currency = currency
    }
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

/// What every provider's routes share: the settings and clock, the webhook receivers, and the
/// reader of the card tokens a device wallet issues.
public struct SandboxCore: Sendable {
    public let settings: SandboxSettings
    /// Where providers send their webhooks: every receiver registered at `/sandbox/webhooks`.
    public let webhooks: WebhookDispatcher
    /// What reads the card tokens a provider of this sandbox issues; nil when none does.
    public let cardTokens: (any CardTokenReader)?
}

/// An error answer the fault plan asks for, before the provider's shape is put on it.
public struct InjectedFault: Sendable {
    public let kind: FaultKind
    public let error: SandboxError
}

extension Array where Element == any SandboxProvider {
    /// The provider that serves `path`, whose error shape answers for it.
    func owner(of path: String) -> (any SandboxProvider)? {
        first { provider in provider.pathPrefixes.contains { path.hasPrefix($0) } } ?? first { $0.claims(path: path) }
    }

    /// The provider that claims `request` by more than its path, if any.
    func claimant(of request: Request) async throws -> (any SandboxProvider)? {
        for provider in self where provider.claimsRequests {
            if try await provider.claims(request) { return provider }
        }
        return nil
    }

    /// The provider whose error shape answers for `request`: its claimant, else its path's owner
    /// (also when telling the claimant needed the store and the store failed).
    func owner(of request: Request) async -> (any SandboxProvider)? {
        ((try? await claimant(of: request)) ?? nil) ?? owner(of: request.uri.path)
    }
}
