import Foundation

/// The latest webhook deliveries and how they ended, for `GET /sandbox/webhooks/deliveries`
/// and tests that wait for one.
public final class WebhookDeliveryLog: Sendable {
    public struct Entry: Codable, Hashable, Sendable {
        public enum Outcome: String, Codable, Sendable { case pending, delivered, failed, dropped }
        public let id: String
        public let receiverID: String
        public let url: String
        /// What was sent, e.g. "AUTHORISATION" or "recurring.token.disabled".
        public let event: String
        public internal(set) var outcome: Outcome
        public internal(set) var attempts: Int
        public internal(set) var lastStatus: Int?
        public internal(set) var lastError: String?

        enum CodingKeys: String, CodingKey {
            case id, url, event, outcome, attempts
            case receiverID = "receiver_id"
            case lastStatus = "last_status"
            case lastError = "last_error"
        }
    }

    /// Enough to look back over a test or a checkout; the oldest go first, whatever their age.
    static let retention = Retention(age: .infinity, capacity: 200)

    struct Kept: StoredRecord, Codable, Equatable {
        var entry: Entry
        var storeKey: String { entry.id }
    }

    private let entries: ProviderStore<Kept>

    init(storage: any SandboxStorage) {
        entries = ProviderStore("webhooks.deliveries", in: storage)
    }

    public var all: [Entry] { get async throws { try await entries.records().map(\.entry) } }

    func record(_ entry: Entry) async throws(SandboxStoreUnavailable) {
        _ = try await entries.create(at: StoreMoment(now: .distantPast, retention: Self.retention)) { _ in Kept(entry: entry) }
    }

    func entry(_ id: String) async throws(SandboxStoreUnavailable) -> Entry? {
        try await entries.record(.key(id))?.entry
    }

    /// The entries of `ids` the log holds, in one read.
    func entries(_ ids: Set<String>) async throws(SandboxStoreUnavailable) -> [Entry] {
        try await entries.records().lazy.map(\.entry).filter { ids.contains($0.id) }
    }

    func update(_ id: String, _ change: (inout Entry) -> Void) async throws(SandboxStoreUnavailable) {
        _ = try await entries.update(.key(id)) { change(&$0.entry) }
    }
}
