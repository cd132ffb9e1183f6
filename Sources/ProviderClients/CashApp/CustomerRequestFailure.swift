import ProviderWire

/// Why a Customer Request API call did not give a customer request.
public enum CustomerRequestFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The API answered with an error body.
    case api(status: Int, errors: [CashAppErrorDetail])
    /// No HTTP response at all.
    case transport(TransportFailure)
    /// A response with no body where one was needed.
    case emptyBody(status: Int)
    /// A body that is not the JSON we expect.
    case undecodable(status: Int, detail: String)

    /// Transport failures and garbled success bodies may go away on a retry; answers do not.
    public var isRetryable: Bool {
        switch self {
        case .transport(let failure): failure != .cancelled
        case .undecodable(let status, _), .emptyBody(let status): (200..<300).contains(status)
        case .api: false
        }
    }

    public var description: String {
        switch self {
        case .api(let status, let errors):
            let first = errors.first.map { "\($0.category) \($0.code)" + ($0.detail.map { ": \($0)" } ?? "") } ?? "no error details"
            return "HTTP \(status): \(first)"
        case .transport(let failure): return failure.description
        case .emptyBody(let status): return "HTTP \(status) with an empty body"
        case .undecodable(let status, let detail): return "HTTP \(status) with a body that is not valid JSON for this API (\(detail))"
        }
    }
}
