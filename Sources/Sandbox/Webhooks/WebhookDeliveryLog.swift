import Foundation
import Synchronization

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

    /// Enough to look back over a test or a checkout; the oldest go first.
    static let capacity = 200

    private let entries = Mutex<[Entry]>([])

    public var all: [Entry] { entries.withLock { $0 } }

    func record(_ entry: Entry) {
        entries.withLock { list in
            list.append(entry)
            if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
        }
    }

    func update(_ id: String, _ change: (inout Entry) -> Void) {
        entries.withLock { list in
            if let index = list.lastIndex(where: { $0.id == id }) { change(&list[index]) }
        }
    }
}
