import ProviderWire

/// Why an Afterpay call did not give what was asked.
public typealias AfterpayFailure = ProviderCallFailure<AfterpayError>

extension AfterpayError: ProviderErrorBody {
    public func failureDescription(status: Int) -> String { "HTTP \(status) \(errorCode): \(message)" }
}
