import Foundation

/// HTTP Archive 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format browsers'
/// developer tools import. Only the fields a transcript fills; our own fields start with `_`
/// as the spec allows.
public enum HAR {
    public struct Document: Codable, Sendable {
        public var log: Log
    }

    public struct Log: Codable, Sendable {
        public var version = "1.2"
        public var creator: Creator
        public var pages: [Page]
        public var entries: [Entry]
        public var comment: String?
        /// The checkout this transcript records: scenario, state transitions and phases.
        public var terminalCheckout: TranscriptRecord?

        enum CodingKeys: String, CodingKey {
            case version, creator, pages, entries, comment
            case terminalCheckout = "_terminalCheckout"
        }
    }

    public struct Creator: Codable, Sendable {
        public var name: String
        public var version: String
    }

    public struct Page: Codable, Sendable {
        public var startedDateTime: Date
        public var id: String
        public var title: String
        public var pageTimings = PageTimings()
    }

    public struct PageTimings: Codable, Sendable {
        public var onContentLoad = -1
        public var onLoad = -1
    }

    public struct Entry: Codable, Sendable {
        public var pageref: String?
        public var startedDateTime: Date
        /// Milliseconds: the sum of the timings that are not -1.
        public var time: Int
        public var request: Request
        public var response: Response
        public var cache = Cache()
        public var timings: Timings
        public var comment: String?
        /// Position in the checkout's HTTP log, which provider API, which attempt, and what
        /// went wrong in transport (Chrome's name for it) when no response arrived.
        public var exchangeID: Int?
        public var provider: String?
        public var attempt: Int?
        public var error: String?

        enum CodingKeys: String, CodingKey {
            case pageref, startedDateTime, time, request, response, cache, timings, comment
            case exchangeID = "_exchangeId", provider = "_provider", attempt = "_attempt", error = "_error"
        }
    }

    public struct Request: Codable, Sendable {
        public var method: String
        public var url: String
        public var httpVersion = "HTTP/1.1"
        public var cookies: [Cookie] = []
        public var headers: [NameValue]
        public var queryString: [NameValue]
        public var postData: PostData?
        public var headersSize = -1
        public var bodySize: Int
    }

    public struct Response: Codable, Sendable {
        /// 0 when no response arrived.
        public var status: Int
        public var statusText: String
        public var httpVersion = "HTTP/1.1"
        public var cookies: [Cookie] = []
        public var headers: [NameValue]
        public var content: Content
        public var redirectURL = ""
        public var headersSize = -1
        public var bodySize: Int
    }

    public struct NameValue: Codable, Sendable, Hashable {
        public var name: String
        public var value: String
    }

    public struct Cookie: Codable, Sendable {
        public var name: String
        public var value: String
    }

    /// `text` only: the spec makes `params` (form fields) and `text` exclusive.
    public struct PostData: Codable, Sendable {
        public var mimeType: String
        public var text: String
    }

    public struct Content: Codable, Sendable {
        public var size: Int
        public var mimeType: String
        public var text: String?
    }

    /// Empty: nothing is cached.
    public struct Cache: Codable, Sendable {}

    public struct Timings: Codable, Sendable {
        public var blocked = -1
        public var dns = -1
        public var connect = -1
        public var send: Int
        public var wait: Int
        public var receive: Int
        public var ssl = -1
    }
}
