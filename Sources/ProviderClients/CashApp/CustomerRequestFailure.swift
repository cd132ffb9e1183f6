import ProviderWire

/// Why a Customer Request API call did not give a customer request.
public typealias CustomerRequestFailure = ProviderCallFailure<CashAppErrorBody>

extension CashAppErrorBody: ProviderErrorBody {
    public func failureDescription(status: Int) -> String {
        let first = errors.first.map { "\($0.category) \($0.code)" + ($0.detail.map { ": \($0)" } ?? "") } ?? "no error details"
        return "HTTP \(status): \(first)"
    }

    public static var expectedJSON: String { "valid JSON for this API" }
}
