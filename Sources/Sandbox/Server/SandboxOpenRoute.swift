import Hummingbird

/// A route under `/sandbox/` that a sandbox with a control token leaves open: a page the customer
/// opens (or an image it shows), reached by whoever holds its link because the link carries its
/// own per-request secret (a `t=` token, a checkout token, a session or payment id no one guesses)
/// or the page shows nothing private. Each provider lists its own (`SandboxProvider.customerRoutes`);
/// every other `/sandbox/` route needs the token (`ControlTokenMiddleware`).
public struct SandboxOpenRoute: Sendable {
    public let method: HTTPRequest.Method
    /// `/sandbox/…`, a `:name` segment matching any one segment.
    public let path: String
    private let segments: [Substring]
    /// Whether a request passes without the control token; nil: always (the route checks its own
    /// secret, or has none to check). Given the request and its path's segments.
    let admits: (@Sendable (Request, [Substring]) async throws -> Bool)?

    /// Open to anyone: the route checks its link's secret itself, or shows nothing private.
    public init(_ method: HTTPRequest.Method, _ path: String) {
        self.init(method, path, admits: nil)
    }

    /// Open to requests `admits` lets through (a control route a customer's page also posts to,
    /// carrying its link's secret); the others need the control token.
    public init(_ method: HTTPRequest.Method, _ path: String, admits: (@Sendable (Request, [Substring]) async throws -> Bool)?) {
        self.method = method
        self.path = path
        segments = path.split(separator: "/")
        self.admits = admits
    }

    /// Whether it is the route `method` and `path` (split at `/`) name.
    func matches(_ method: HTTPRequest.Method, _ path: [Substring]) -> Bool {
        guard method == self.method, path.count == segments.count else { return false }
        for (pattern, part) in zip(segments, path) where !pattern.hasPrefix(":") && pattern != part { return false }
        return true
    }
}
