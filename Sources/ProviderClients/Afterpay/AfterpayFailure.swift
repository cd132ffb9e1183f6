import ProviderWire

/// Why an Afterpay call did not give what was asked.
public enum AfterpayFailure: Error, Hashable, Sendable, CustomStringConvertible {
    case api(status: Int, error: AfterpayError)
    case transport(TransportFailure)
    case undecodable(status: Int, detail: String)

    public var isRetryable: Bool {
        switch self {
        case .transport(let failure): failure != .cancelled
        case .undecodable(let status, _): (200..<300).contains(status)
        case .api: false
        }
    }

    public var description: String {
        switch self {
        case .api(let status, let error): "HTTP \(status) \(error.errorCode): \(error.message)"
        case .transport(let failure): failure.description
        case .undecodable(let status, let detail): "HTTP \(status) with a body that is not the expected JSON (\(detail))"
        }
    }
}
