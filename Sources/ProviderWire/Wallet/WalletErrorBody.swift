/// The wallet sandbox's error answer: what is wrong, the request field at fault and, for a field
/// with a fixed set of values, those values.
public struct WalletErrorBody: Codable, Hashable, Sendable, CustomStringConvertible {
    public var error: String
    public var field: String?
    public var allowed: [String]?

    public init(error: String, field: String? = nil, allowed: [String]? = nil) {
        self.error = error
        self.field = field
        self.allowed = allowed
    }

    public var description: String { error }
}
