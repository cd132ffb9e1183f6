import ArgumentParser
import CheckoutApp
import Sandbox

/// `checkout sandbox`'s bounds: what it keeps, how long it waits for clients, how many it serves.
struct SandboxLimitFlags: ParsableArguments {
    private static let defaults = SandboxLimits()
    private typealias Ranges = SandboxLimits.Ranges

    @Option(name: .customLong("max-requests"), help: ArgumentHelp(
        "Customer requests (and, apart, Afterpay checkouts) kept; past it the oldest are forgotten (404). "
            + "\(Self.range(Ranges.maxStoredRequests)).", valueName: "count"))
    var maxStoredRequests = defaults.maxStoredRequests

    @Option(name: .customLong("request-retention"), help: ArgumentHelp(
        "Seconds after creation a request or checkout is forgotten (404). \(Self.range(Ranges.requestRetention)).",
        valueName: "seconds"))
    var requestRetention = defaults.requestRetention

    @Option(name: .customLong("max-body-bytes"), help: ArgumentHelp(
        "Largest request body read; larger ones get 413 in the provider's error shape. \(Self.range(Ranges.maxBodyBytes)).",
        valueName: "bytes"))
    var maxBodyBytes = defaults.maxBodyBytes

    @Option(name: .customLong("max-faults"), help: ArgumentHelp(
        "Faults held at once; adding more gets 409. \(Self.range(Ranges.maxFaults)).", valueName: "count"))
    var maxFaults = defaults.maxFaults

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Open connections; past it new ones are closed at once. \(Self.range(Ranges.maxConnections)).", valueName: "count"))
    var maxConnections = defaults.maxConnections

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Seconds a connection may wait between requests before it is closed. \(Self.range(Ranges.idleTimeout)).",
        valueName: "seconds"))
    var idleTimeout = defaults.idleTimeout

    @Option(name: .customLong("request-timeout"), help: ArgumentHelp(
        "Seconds a client has to send a whole request once it starts, or it is disconnected. \(Self.range(Ranges.requestReadTimeout)).",
        valueName: "seconds"))
    var requestReadTimeout = defaults.requestReadTimeout

    @Option(name: .customLong("max-journal-entries"), help: ArgumentHelp(
        "Requests the journal keeps (GET /sandbox/journal, `checkout journal`); past it the oldest are forgotten, as are those "
            + "older than --request-retention; 0 keeps none. \(Self.range(Ranges.maxJournalEntries)).", valueName: "count"))
    var maxJournalEntries = defaults.maxJournalEntries

    var limits: SandboxLimits {
        var limits = SandboxLimits()
        limits.maxStoredRequests = maxStoredRequests
        limits.requestRetention = requestRetention
        limits.maxBodyBytes = maxBodyBytes
        limits.maxFaults = maxFaults
        limits.maxConnections = maxConnections
        limits.idleTimeout = idleTimeout
        limits.requestReadTimeout = requestReadTimeout
        limits.maxJournalEntries = maxJournalEntries
        return limits
    }

    func validate() throws {
        for (flag, value, range) in [
            ("--max-requests", maxStoredRequests, Ranges.maxStoredRequests), ("--max-body-bytes", maxBodyBytes, Ranges.maxBodyBytes),
            ("--max-faults", maxFaults, Ranges.maxFaults), ("--max-connections", maxConnections, Ranges.maxConnections),
            ("--max-journal-entries", maxJournalEntries, Ranges.maxJournalEntries),
        ] where !range.contains(value) {
            throw ValidationError("\(flag) must be a whole number from \(InputLimits.describe(range) { "\($0)" }), got \(value)")
        }
        for (flag, value, range) in [
            ("--request-retention", requestRetention, Ranges.requestRetention), ("--idle-timeout", idleTimeout, Ranges.idleTimeout),
            ("--request-timeout", requestReadTimeout, Ranges.requestReadTimeout),
        ] where !range.contains(value) {
            throw ValidationError("\(flag) must be a number of seconds from \(InputLimits.describe(range) { $0.plainText }), got \(value.plainText)")
        }
    }

    private static func range(_ range: ClosedRange<Int>) -> String { "From " + InputLimits.describe(range) { "\($0)" } }

    private static func range(_ range: ClosedRange<Double>) -> String { "From " + InputLimits.describe(range) { $0.plainText } }
}
