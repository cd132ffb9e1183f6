/// Where Square's Payments API calls go and with which credentials.
public struct SquareConfiguration: Sendable, Hashable {
    /// Square's sandbox; `--square-url` replaces it.
    public static let sandboxBaseURL = "https://connect.squareupsandbox.com"
    /// The API version this client speaks (`Square-Version`).
    public static let apiVersion = "2025-10-16"

    /// Up to the host, e.g. `https://connect.squareupsandbox.com`.
    public var baseURL: String
    public var accessToken: String
    /// The seller location payments are taken at; nil lets Square use the main one.
    public var locationID: String?

    public init(baseURL: String, accessToken: String, locationID: String?) {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.accessToken = accessToken
        self.locationID = locationID
    }
}
