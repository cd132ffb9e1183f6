import Foundation
import PaymentFlow
import Synchronization

/// Something a provider told the checkout outside its calls (Adyen's webhooks): shown in the
/// log, printed by `checkout run` (`event: …`, `{"event": …}`), kept in transcripts.
public struct ProviderNotice: Hashable, Sendable {
    public var provider: String
    /// `AUTHORISATION`, `recurring.token.disabled`, …
    public var name: String
    /// One line of text, without the time.
    public var summary: String
    /// For `--json`: the notice's facts.
    public var fields: [String: String]
    /// Whether it was verified (a signature that checked out); an unverified one is shown, never acted on.
    public var verified: Bool
    /// An SDK's log line's parameters (`sdk_log`): `--json` nests them as `parameters`.
    public var parameters: [String: String]?
    /// For `--json`: facts that are lists of records (the wallet's `summary_items`).
    public var lists: [String: [[String: String]]]

    public init(
        provider: String, name: String, summary: String, fields: [String: String] = [:], verified: Bool, parameters: [String: String]? = nil,
        lists: [String: [[String: String]]] = [:]
    ) {
        self.provider = provider
        self.name = name
        self.summary = summary
        self.fields = fields
        self.verified = verified
        self.parameters = parameters
        self.lists = lists
    }

    /// The event name of a line a provider's SDK logged.
    public static let sdkLogEvent = "sdk_log"

    /// A line `provider`'s SDK logged: `{"event": "sdk_log", "provider": …, "name": …, "parameters": {…}}`,
    /// shown as `sdk_log NAME k=v …`. Never acted on (it reports, it decides nothing).
    public static func sdkLog(provider: String, _ line: SDKLogLine) -> ProviderNotice {
        ProviderNotice(
            provider: provider, name: sdkLogEvent, summary: "\(sdkLogEvent) \(line.summary)", fields: ["name": line.name], verified: true,
            parameters: line.parameters)
    }

    public var isSDKLog: Bool { name == Self.sdkLogEvent && parameters != nil }
}

/// Where providers post notices and the front ends listen: the screen and `checkout run`
/// subscribe for the session's life.
public final class ProviderNotices: Sendable {
    private let listeners = Mutex<[UUID: @Sendable (ProviderNotice) -> Void]>([:])

    public init() {}

    public func post(_ notice: ProviderNotice) {
        for listener in listeners.withLock({ Array($0.values) }) { listener(notice) }
    }

    /// The logger to hand `provider`'s SDK: each line it logs is posted as an `sdk_log` notice.
    public func sdkLogger(provider: String) -> SDKLogger {
        { [weak self] line in self?.post(.sdkLog(provider: provider, line)) }
    }

    /// Calls `listener` with every notice until the returned cancel is called.
    public func subscribe(_ listener: @escaping @Sendable (ProviderNotice) -> Void) -> @Sendable () -> Void {
        let id = UUID()
        listeners.withLock { $0[id] = listener }
        return { [weak self] in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
    }
}
