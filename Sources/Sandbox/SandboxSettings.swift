import Foundation
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
    /// Adyen's webhook HMAC key (hex); nil signs with `AdyenHMAC.sandboxKey`. An invalid one is
    /// refused by `checkout sandbox --adyen-hmac-key`; here it falls back to the sandbox key.
    public var adyenHMACKey: String?
    /// Seconds before a `Received` Adyen payment (magic 70.04 / 70.05) is decided by webhook.
    public var adyenAsyncResultDelay: Double = 2
    /// Tries per webhook delivery (the first included) before it is given up.
    public var webhookAttempts = 3
    /// Seconds before the first retry of a failed delivery; each later one waits twice as long.
    public var webhookRetryDelay: Double = 1
    /// Seconds one delivery attempt may take.
    public var webhookTimeout: Double = 5
    /// How many sandbox seconds pass per real second for provider timers such as Square's delayed
    /// capture; >1 makes a one-minute delay pass in seconds. Must be positive.
    public var timeScale: Double = 1

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

