import Foundation
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
    /// For `--json`: facts that are lists of records (the wallet's `summary_items`).
    public var lists: [String: [[String: String]]]

    public init(provider: String, name: String, summary: String, fields: [String: String] = [:], verified: Bool, lists: [String: [[String: String]]] = [:]) {
        self.provider = provider
        self.name = name
        self.summary = summary
        self.fields = fields
        self.verified = verified
        self.lists = lists
    }
}

/// Where providers post notices and the front ends listen: the screen and `checkout run`
/// subscribe for the session's life.
public final class ProviderNotices: Sendable {
    private let listeners = Mutex<[UUID: @Sendable (ProviderNotice) -> Void]>([:])

    public init() {}

    public func post(_ notice: ProviderNotice) {
        for listener in listeners.withLock({ Array($0.values) }) { listener(notice) }
    }

    /// Calls `listener` with every notice until the returned cancel is called.
    public func subscribe(_ listener: @escaping @Sendable (ProviderNotice) -> Void) -> @Sendable () -> Void {
        let id = UUID()
        listeners.withLock { $0[id] = listener }
        return { [weak self] in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
    }
}
