/// How much the sandbox keeps and how long it waits: the bounds that stop one client from
/// exhausting its memory, file descriptors or attention. `checkout sandbox` sets them by flag;
/// each range below is what a flag accepts.
public struct SandboxLimits: Sendable, Hashable {
    public static let defaultMaxFaults = 100
    /// The largest amount either emulated API accepts, in minor units: the client's own ceiling
    /// (InputLimits.minorUnits), so a number that passes one side passes the other.
    public static let maxAmountMinorUnits = 99_999_999_999

    /// Customer requests (and, separately, Afterpay checkouts) kept; past it the oldest go first.
    public var maxStoredRequests = 5_000
    /// Seconds after creation a request or checkout is forgotten (then 404, as an unknown id).
    public var requestRetention: Double = 86_400
    /// The largest request body read, in bytes; larger ones get 413 in the provider's shape.
    public var maxBodyBytes = 65_536
    /// Faults the plan holds at once; adding more gets 409.
    public var maxFaults = SandboxLimits.defaultMaxFaults
    /// Open connections; past it new ones are closed at once.
    public var maxConnections = 256
    /// Seconds a connection may sit without a request before it is closed.
    public var idleTimeout: Double = 60
    /// Seconds a client has to send a whole request once its first byte arrives.
    public var requestReadTimeout: Double = 10
    /// Webhook receivers registered at once; registering more gets 409.
    public var maxWebhookReceivers = 16
    /// Webhook deliveries under way at once; past it new ones are dropped (and logged as such).
    public var maxQueuedWebhookDeliveries = 256

    /// Entries the request journal keeps (`GET /sandbox/journal`); past it the oldest go first.
    /// Its entries are forgotten after `requestRetention` seconds too. 0 keeps no journal.
    public var maxJournalEntries = 5_000

    public init() {}

    public enum Ranges {
        public static let maxStoredRequests = 1...1_000_000
        public static let requestRetention = 1.0...2_592_000
        /// Up to Hummingbird's own 2 MiB ceiling.
        public static let maxBodyBytes = 1_024...2_097_152
        public static let maxFaults = 1...10_000
        public static let maxConnections = 1...10_000
        public static let idleTimeout = 0.05...86_400
        public static let requestReadTimeout = 0.05...3_600
        public static let maxJournalEntries = 0...1_000_000
    }
}
