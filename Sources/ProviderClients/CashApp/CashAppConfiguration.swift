/// Where the Customer Request API lives and who we are to it.
public struct CashAppConfiguration: Sendable, Hashable {
    public static let sandboxHost = "https://sandbox.api.cash.app"
    public static let productionHost = "https://api.cash.app"
    public static let requestsPath = "/customer-request/v1/requests"

    /// The API host root, e.g. https://sandbox.api.cash.app; the client appends the API path.
    public var baseURL: String
    public var clientID: String
    public var brandID: String

    public init(baseURL: String, clientID: String, brandID: String) {
        self.baseURL = baseURL
        self.clientID = clientID
        self.brandID = brandID
    }

    public var requestsURL: String {
        var root = baseURL
        while root.hasSuffix("/") { root.removeLast() }
        return root + Self.requestsPath
    }
}
