/// A request that got no usable HTTP response at all.
public enum TransportFailure: Error, Hashable, Sendable, CustomStringConvertible {
    case timedOut(after: Duration)
    case connectionFailed(String)
    case connectionLost(String)
    case cancelled
    case other(String)

    public var description: String {
        switch self {
        case .timedOut(let after): "no response within \(after.components.seconds) s"
        case .connectionFailed(let detail): "could not connect (\(detail))"
        case .connectionLost(let detail): "the connection closed before a response arrived (\(detail))"
        case .cancelled: "the request was cancelled"
        case .other(let detail): detail
        }
    }
}
