import Foundation

/// The URLs webhooks are delivered to, registered through `/sandbox/webhooks`.
public final class WebhookReceivers: Sendable {
    public struct Receiver: Codable, Hashable, Sendable {
        public let id: String
        public let url: String
    }

    struct Kept: StoredRecord, Codable, Equatable {
        let receiver: Receiver
        var storeKey: String { receiver.id }
    }

    /// Why a URL was not registered.
    enum Refusal: Error {
        case invalid(String)
    }

    /// Long enough for any local receiver, short enough that a list of them stays small.
    static let maxURLLength = 2_048

    private let receivers: ProviderStore<Kept>
    /// However old, the oldest go first past the limit.
    private let retention: Retention

    init(limit: Int, storage: any SandboxStorage) {
        receivers = ProviderStore("webhooks.receivers", in: storage)
        retention = Retention(age: .infinity, capacity: limit)
    }

    public var all: [Receiver] { get async throws { try await receivers.records().map(\.receiver) } }

    /// Registers `url`; when `limit` are registered, the oldest goes: a shared sandbox outlives
    /// runs that ended without unregistering (killed, or crashed), and new runs must still hear.
    func add(_ url: String) async throws -> Receiver {
        try Self.validate(url)
        let receiver = Receiver(id: SandboxIDs.make("WHR_", length: 12), url: url)
        _ = try await receivers.create(at: StoreMoment(now: .distantPast, retention: retention)) { _ in Kept(receiver: receiver) }
        return receiver
    }

    func remove(id: String) async throws(SandboxStoreUnavailable) -> Bool { try await receivers.remove(id) != nil }

    /// An absolute http(s) URL with a host and no credentials: what a delivery can POST to.
    private static func validate(_ url: String) throws(Refusal) {
        guard url.utf8.count <= maxURLLength else { throw .invalid("url is longer than \(maxURLLength) characters.") }
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalid("url must be an absolute http:// or https:// URL, e.g. \"http://127.0.0.1:9000/webhooks\".")
        }
        guard let host = parsed.encodedHost, !host.isEmpty else { throw .invalid("url has no host.") }
        guard parsed.user == nil, parsed.password == nil else { throw .invalid("url must not carry credentials.") }
    }
}
