import ProviderWire

/// Why an Adyen call did not give what was asked.
public enum AdyenFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// An answer in Adyen's error shape.
    case api(status: Int, error: AdyenServiceError)
    case transport(TransportFailure)
    case undecodable(status: Int, detail: String)

    /// Lost responses and Adyen's own outages are retried (with the same idempotency key);
    /// a 4xx answer is final.
    public var isRetryable: Bool {
        switch self {
        case .transport(let failure): failure != .cancelled
        case .undecodable(let status, _): (200..<300).contains(status)
        case .api(let status, _): status >= 500 || status == 429
        }
    }

    public var description: String {
        switch self {
        case .api(let status, let error): "HTTP \(status) \(error.errorCode) (\(error.errorType)): \(error.message)"
        case .transport(let failure): failure.description
        case .undecodable(let status, let detail): "HTTP \(status) with a body that is not the expected JSON (\(detail))"
        }
    }
}
