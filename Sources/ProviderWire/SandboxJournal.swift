import Foundation

/// One request a sandbox served, as `GET /sandbox/journal` lists it (and `checkout journal` reads
/// it): redacted as the HTTP pane redacts, bodies cut at `SandboxJournalEntry.maxBodyBytes`.
public struct SandboxJournalEntry: Codable, Hashable, Sendable {
    /// The most of a body an entry keeps, in bytes; past it the body is cut and `truncated` set.
    public static let maxBodyBytes = 16_384

    public struct Header: Codable, Hashable, Sendable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A request's or an answer's headers and body.
    public struct Message: Codable, Hashable, Sendable {
        public var headers: [Header]
        /// The body as text (redacted, cut at `maxBodyBytes`); nil when there was none.
        public var body: String?
        /// The whole body's size in bytes, as sent.
        public var bodyBytes: Int
        /// Whether `body` is only the first `maxBodyBytes` of it.
        public var truncated: Bool

        public init(headers: [Header], body: String?, bodyBytes: Int, truncated: Bool) {
            self.headers = headers
            self.body = body
            self.bodyBytes = bodyBytes
            self.truncated = truncated
        }

        enum CodingKeys: String, CodingKey {
            case headers, body, truncated
            case bodyBytes = "body_bytes"
        }
    }

    /// Its place in the journal, from 1, the same whichever instance of a shared sandbox is asked:
    /// `?since=ID` lists the entries after it.
    public var id: Int
    /// When the request arrived.
    public var time: Date
    /// Which sandbox process served it (random per process): instances of one sandbox differ.
    public var instance: String
    public var method: String
    /// The path and query as sent, secret query values redacted.
    public var path: String
    public var status: Int
    public var durationMilliseconds: Double
    /// The registry id of the provider whose route served it; nil for the sandbox's own routes.
    public var provider: String?
    /// The checkout run that sent it (`SandboxRunHeader`), when one did.
    public var run: String?
    /// The provider's ids it names (in its path, its request or its answer), for `?reference=`.
    public var references: [String]
    /// The injected fault that hit it (`/sandbox/faults`), if one did: `drop` and `reset` mean the
    /// client got no answer, whatever `status` says the handler made.
    public var fault: String?
    public var request: Message
    public var response: Message

    public init(
        id: Int, time: Date, instance: String, method: String, path: String, status: Int, durationMilliseconds: Double,
        provider: String?, run: String?, references: [String], fault: String? = nil, request: Message, response: Message
    ) {
        self.id = id
        self.time = time
        self.instance = instance
        self.method = method
        self.path = path
        self.status = status
        self.durationMilliseconds = durationMilliseconds
        self.provider = provider
        self.run = run
        self.references = references
        self.fault = fault
        self.request = request
        self.response = response
    }

    enum CodingKeys: String, CodingKey {
        case id, time, instance, method, path, status, provider, run, references, fault, request, response
        case durationMilliseconds = "duration_ms"
    }
}

/// One page of `GET /sandbox/journal`: entries oldest first, and where the next page starts.
public struct SandboxJournalPage: Codable, Hashable, Sendable {
    public var entries: [SandboxJournalEntry]
    /// The `since` that continues after this page (the last entry looked at; the `since` asked
    /// for when there was none): a follower asks with it again and again.
    public var next: Int
    /// Whether more entries were already there when this page was cut (ask again with `next` now).
    public var more: Bool

    public init(entries: [SandboxJournalEntry], next: Int, more: Bool) {
        self.entries = entries
        self.next = next
        self.more = more
    }
}

/// The query of `GET /sandbox/journal`, built by a client and read by the sandbox.
public struct SandboxJournalQuery: Hashable, Sendable {
    public enum Since: Hashable, Sendable {
        /// Entries after this id.
        case id(Int)
        /// No entries: the page's `next` is the newest entry's id (where a follower starts).
        case end
        /// Entries that arrived at or after this time.
        case time(Date)

        /// Reads `since` as the sandbox takes it: `end`, an id, or a time; nil for anything else.
        public init?(parsing text: String) {
            if text == SandboxJournalQuery.end {
                self = .end
            } else if let id = Int(text), id >= 0, text.allSatisfy(\.isASCII) {
                self = .id(id)
            } else if let time = ISO8601Milliseconds.date(from: text) {
                self = .time(time)
            } else {
                return nil
            }
        }
    }

    public var since: Since?
    /// A provider's registry id, or `none` for the sandbox's own routes.
    public var provider: String?
    /// A path prefix, from `/`.
    public var path: String?
    /// A status (`404`) or a class (`4xx`).
    public var status: String?
    public var reference: String?
    public var limit: Int?

    public init(since: Since? = nil, provider: String? = nil, path: String? = nil, status: String? = nil, reference: String? = nil, limit: Int? = nil) {
        self.since = since
        self.provider = provider
        self.path = path
        self.status = status
        self.reference = reference
        self.limit = limit
    }

    /// The `since` of a follower's start: no entries, only the newest's id as `next`.
    public static let end = "end"
    public static let defaultLimit = 100
    public static let limits = 1...1_000
    /// The `provider` value of the sandbox's own routes.
    public static let noProvider = "none"

    /// The query string (without `?`), each value percent-encoded.
    public var queryString: String {
        var items: [(String, String)] = []
        switch since {
        case .id(let id)?: items.append(("since", String(id)))
        case .time(let time)?: items.append(("since", ISO8601Milliseconds.string(from: time)))
        case .end?: items.append(("since", Self.end))
        case nil: break
        }
        if let provider { items.append(("provider", provider)) }
        if let path { items.append(("path", path)) }
        if let status { items.append(("status", status)) }
        if let reference { items.append(("reference", reference)) }
        if let limit { items.append(("limit", String(limit))) }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")
        return items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }.joined(separator: "&")
    }

    /// A status filter's meaning: one code, or a class (`4` for `4xx`); nil when it is neither.
    public static func statusFilter(_ text: String) -> StatusFilter? {
        let lower = text.lowercased()
        if lower.count == 3, lower.hasSuffix("xx"), let digit = lower.first?.wholeNumberValue, (1...5).contains(digit) { return .family(digit) }
        if lower.count == 3, let code = Int(lower), (100...599).contains(code) { return .code(code) }
        return nil
    }

    public enum StatusFilter: Hashable, Sendable {
        case code(Int)
        case family(Int)

        public func matches(_ status: Int) -> Bool {
            switch self {
            case .code(let code): status == code
            case .family(let digit): status / 100 == digit
            }
        }
    }

    /// What `status` accepts, for messages.
    public static let statusRule = "a status code from 100 to 599 (e.g. 404) or a class from 1xx to 5xx (e.g. 4xx)"
    /// What `since` accepts, for messages.
    public static let sinceRule = "an entry id (a whole number, 0 for the first), an ISO 8601 time such as 2026-01-31T09:30:00Z, or end (only the newest entry's id as next)"
}
