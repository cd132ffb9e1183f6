import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// A source of the current time; tests pass a manual clock to move time on.
public typealias SandboxClock = @Sendable () -> Date

/// How the sandbox behaves; tests shorten the timings.
public struct SandboxSettings: Sendable {
    public var now: SandboxClock
    /// How often a pending request's auth-flow triggers rotate.
    public var triggerRotation: TimeInterval
    /// How long a request stays pending before it is declined.
    public var requestLifetime: TimeInterval
    /// The merchant name shown to the customer.
    public var merchantName: String
    /// How long the `timeout` fault keeps a request unanswered (beyond the client's 5 s).
    public var faultTimeoutSeconds: Double = 8
    /// How long the `slow` fault delays an answer.
    public var faultSlowSeconds: Double = 3
    /// What it keeps and how long it waits for clients.
    public var limits = SandboxLimits()
    /// Tries per webhook delivery (the first included) before it is given up.
    public var webhookAttempts = 3
    /// Seconds before the first retry of a failed delivery; each later one waits twice as long.
    public var webhookRetryDelay: Double = 1
    /// Seconds one delivery attempt may take.
    public var webhookTimeout: Double = 5
    /// How many sandbox seconds pass per real second for provider timers such as Square's delayed
    /// capture; >1 makes a one-minute delay pass in seconds. Must be positive.
    public var timeScale: Double = 1
    /// Where every provider's records are kept: the choice of `useStore(_:)`, memory by default.
    public internal(set) var store: SandboxStoreChoice = .memory
    /// The storage `store` names: every provider's stores are made by it (`ProviderStore`).
    var storage: any SandboxStorage = MemoryStorage()
    /// What must run beside the HTTP server for `storage` (a database's connection pool), if anything.
    var storageService: (any Service)?
    /// Told of what went wrong serving a request that the answer alone does not say (a store that
    /// failed): `checkout sandbox` prints it; the sandbox a screen embeds keeps quiet.
    public var reportProblem: (@Sendable (String) -> Void)?
    /// The token every `/sandbox/` control route then needs (`ControlTokenMiddleware`); nil: none
    /// needs one, as for the embedded sandbox, which listens on loopback only.
    public var controlToken: SandboxControlToken?
    /// Told of every request served, one line each (`SandboxAccessLog`): `checkout sandbox` prints
    /// them; nil (the default, and the sandbox a screen embeds) logs nothing.
    public var accessLog: Logger?
    /// Each provider's own settings, by their type: see `subscript(_:)`.
    private var providerSettings: [ObjectIdentifier: any SandboxProviderSettings] = [:]

    public init(
        now: @escaping SandboxClock = { Date() },
        triggerRotation: TimeInterval = 30,
        requestLifetime: TimeInterval = 3600,
        merchantName: String = "TerminalCheckout Sandbox Merchant"
    ) {
        self.now = now
        self.triggerRotation = triggerRotation
        self.requestLifetime = requestLifetime
        self.merchantName = merchantName
    }
}

extension SandboxSettings {
    /// The settings a provider's sandbox defines for itself (set by its descriptor's
    /// `configureSandbox`, read by its routes); their defaults until set.
    public subscript<Settings: SandboxProviderSettings>(_ type: Settings.Type) -> Settings {
        get { providerSettings[ObjectIdentifier(type)] as? Settings ?? Settings() }
        set { providerSettings[ObjectIdentifier(type)] = newValue }
    }
}

/// Settings one provider's sandbox defines in its own folder, so `SandboxSettings` names no
/// provider; `init()` gives the defaults.
public protocol SandboxProviderSettings: Sendable {
    init()
}

/// A clock that moves only when told: for tests of rotation and expiry.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public var clock: SandboxClock { { [self] in self.now } }
}

