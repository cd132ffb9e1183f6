/// The sandbox's own error list, `{"errors": [{category, code, detail, field}]}`: what its control
/// routes and the paths no provider owns answer with, and what the control client reads.
public struct SandboxErrorListBody: Codable, Hashable, Sendable {
    public struct Entry: Codable, Hashable, Sendable {
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

    public var errors: [Entry]

    public init(errors: [Entry]) { self.errors = errors }
}
