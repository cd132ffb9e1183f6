import Foundation

/// One HTTP attempt as sent and received, already redacted: what the HTTP log pane,
/// transcripts and tests read. Retries are separate exchanges with a higher `attempt`.
public struct HTTPExchange: Sendable, Hashable, Codable, Identifiable {
    public struct Header: Sendable, Hashable, Codable {
        public let name: String
        public let value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    /// Position in the log, from 1.
    public let id: Int
    /// Which provider API this was (e.g. "cashapp", "sandbox").
    public let provider: String
    /// 1 for the first try, 2 for the first retry, and so on.
    public let attempt: Int
    public let method: String
    public let url: String
    public let requestHeaders: [Header]
    public let requestBody: String?
    /// nil when no response arrived.
    public let status: Int?
    public let responseHeaders: [Header]
    public let responseBody: String?
    public let startedAt: Date
    public let durationMilliseconds: Int
    /// What went wrong in transport, when something did.
    public let failure: String?

    public init(
        id: Int, provider: String, attempt: Int, method: String, url: String, requestHeaders: [Header],
        requestBody: String?, status: Int?, responseHeaders: [Header], responseBody: String?,
        startedAt: Date, durationMilliseconds: Int, failure: String?
    ) {
        self.id = id
        self.provider = provider
        self.attempt = attempt
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.failure = failure
    }

    /// The path and query of `url`, for compact display.
    public var path: String {
        guard let components = URLComponents(string: url) else { return url }
        let query = components.percentEncodedQuery.map { "?\($0)" } ?? ""
        return (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + query
    }
}
