import ProviderWire

/// What the sandbox answers when a control request fails: its own error list.
public typealias SandboxControlErrorBody = SandboxErrorListBody

extension SandboxErrorListBody: ProviderErrorBody {
    public func failureDescription(status: Int) -> String {
        // The control client's own words for a missing or refused control token say it all.
        if status == 401, let entry = errors.first, entry.code.hasPrefix("CONTROL_TOKEN_"), let detail = entry.detail { return detail }
        let first = errors.first.map { "\($0.category) \($0.code)" + ($0.detail.map { ": \($0)" } ?? "") } ?? "no error details"
        return "HTTP \(status): \(first)"
    }

    public static var expectedJSON: String { "valid JSON for this API" }
}

/// Why the sandbox did not do what its control API was asked.
public typealias SandboxControlFailure = ProviderCallFailure<SandboxControlErrorBody>

extension ProviderCallFailure where ErrorBody == SandboxControlErrorBody {
    /// The sandbox refused the call for its control token (none sent, or not its own): nothing
    /// the run does next can change that.
    public var isControlTokenRefusal: Bool {
        guard case .api(401, let body) = self else { return false }
        return body.errors.first?.code.hasPrefix("CONTROL_TOKEN_") ?? false
    }
}
