/// What the sandbox answers when a control request fails: its errors, in the sandbox's shape.
public struct SandboxControlErrorBody: Codable, Hashable, Sendable, ProviderErrorBody {
    public struct Detail: Codable, Hashable, Sendable {
        public var category: String
        public var code: String
        public var detail: String?
        public var field: String?

        public init(category: String, code: String, detail: String? = nil, field: String? = nil) {
            self.category = category
            self.code = code
            self.detail = detail
            self.field = field
        }
    }

    public var errors: [Detail]

    public init(errors: [Detail]) { self.errors = errors }

    public func failureDescription(status: Int) -> String {
        let first = errors.first.map { "\($0.category) \($0.code)" + ($0.detail.map { ": \($0)" } ?? "") } ?? "no error details"
        return "HTTP \(status): \(first)"
    }

    public static var expectedJSON: String { "valid JSON for this API" }
}

/// Why the sandbox did not do what its control API was asked.
public typealias SandboxControlFailure = ProviderCallFailure<SandboxControlErrorBody>
