import ProviderWire

/// Why an Adyen call did not give what was asked.
public typealias AdyenFailure = ProviderCallFailure<AdyenServiceError>

extension AdyenServiceError: ProviderErrorBody {
    public func failureDescription(status: Int) -> String { "HTTP \(status) \(errorCode) (\(errorType)): \(message)" }
}
