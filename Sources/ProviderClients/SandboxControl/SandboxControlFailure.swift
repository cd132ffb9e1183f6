import ProviderWire

/// What the sandbox answers when a control request fails: its own error list.
public typealias SandboxControlErrorBody = SandboxErrorListBody

extension SandboxErrorListBody: ProviderErrorBody {
    public func failureDescription(status: Int) -> String {
        let first = errors.first.map { "\($0.category) \($0.code)" + ($0.detail.map { ": \($0)" } ?? "") } ?? "no error details"
        return "HTTP \(status): \(first)"
    }

    public static var expectedJSON: String { "valid JSON for this API" }
}

/// Why the sandbox did not do what its control API was asked.
public typealias SandboxControlFailure = ProviderCallFailure<SandboxControlErrorBody>
