/// A provider's error answer as its client keeps it, and how a failure carrying it reads.
public protocol ProviderErrorBody: Hashable, Sendable {
    /// A failure's description for an answer of `status` with this body.
    func failureDescription(status: Int) -> String
    /// What an unreadable body was expected to be, as a failure's description names it.
    static var expectedJSON: String { get }
}

extension ProviderErrorBody {
    public func failureDescription(status: Int) -> String { "HTTP \(status): \(self)" }
    public static var expectedJSON: String { "the expected JSON" }
}

/// What a client's failure type makes of a request that got no answer at all, and of a body
/// that could not be written or read.
public protocol ProviderCallError: Error {
    static func transport(_ failure: TransportFailure) -> Self
    static func undecodable(status: Int, detail: String) -> Self
}

/// Why a call to a provider did not give what was asked, with the provider's own error body
/// (`ErrorBody`) when one came back: the one failure type of every JSON client.
public enum ProviderCallFailure<ErrorBody: ProviderErrorBody>: ProviderCallError, Hashable, Sendable, CustomStringConvertible {
    /// An answer outside 2xx, in the provider's error shape.
    case api(status: Int, body: ErrorBody)
    case transport(TransportFailure)
    /// A response with no body where one was needed (for clients that read one so: Cash App's,
    /// the sandbox's control API).
    case emptyBody(status: Int)
    case undecodable(status: Int, detail: String)

    public var description: String {
        switch self {
        case .api(let status, let body): body.failureDescription(status: status)
        case .transport(let failure): failure.description
        case .emptyBody(let status): "HTTP \(status) with an empty body"
        case .undecodable(let status, let detail): "HTTP \(status) with a body that is not \(ErrorBody.expectedJSON) (\(detail))"
        }
    }

    /// The request may have reached the provider, but no answer came back: a lost connection
    /// or a timeout after sending. Retrying blindly could act twice.
    public var responseLost: Bool {
        guard case .transport(let failure) = self else { return false }
        switch failure {
        case .connectionLost, .timedOut: return true
        case .connectionFailed, .cancelled, .other: return false
        }
    }

    /// Nothing usable came back and asking again may give it: no answer (unless cancelled), or
    /// a 2xx without the body it needed. The provider's answers are final.
    public var isRetryable: Bool {
        switch self {
        case .transport(let failure): failure != .cancelled
        case .undecodable(let status, _), .emptyBody(let status): (200..<300).contains(status)
        case .api: false
        }
    }

    /// The provider's own outage: a 5xx or 429 answer, retried by clients whose retries
    /// reuse an idempotency key.
    public var isOutage: Bool {
        guard case .api(let status, _) = self else { return false }
        return status >= 500 || status == 429
    }
}
