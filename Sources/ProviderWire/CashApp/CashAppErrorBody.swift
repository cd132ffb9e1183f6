/// One error of a Cash App API error response.
public struct CashAppErrorDetail: Codable, Hashable, Sendable {
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

/// `{"errors": [...]}`: the shape of every Cash App API error response.
public struct CashAppErrorBody: Codable, Hashable, Sendable {
    public var errors: [CashAppErrorDetail]
    public init(errors: [CashAppErrorDetail]) { self.errors = errors }
}
