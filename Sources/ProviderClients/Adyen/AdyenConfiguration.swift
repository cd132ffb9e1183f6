/// Where Adyen Checkout API calls go and with which credentials.
public struct AdyenConfiguration: Sendable, Hashable {
    /// Adyen's test environment; `--adyen-url` replaces it.
    public static let testBaseURL = "https://checkout-test.adyen.com/v71"
    public static let apiVersionPath = "/v71"

    /// Up to and including the version, e.g. `https://checkout-test.adyen.com/v71`.
    public var baseURL: String
    public var apiKey: String
    public var merchantAccount: String
    /// Whose stored methods are listed and created.
    public var shopperReference: String
    /// Where Adyen would send the shopper back (required by `/payments`; unused by Cash App Pay in app).
    public var returnURL: String

    public init(baseURL: String, apiKey: String, merchantAccount: String, shopperReference: String, returnURL: String = "terminalcheckout://adyen/return") {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.apiKey = apiKey
        self.merchantAccount = merchantAccount
        self.shopperReference = shopperReference
        self.returnURL = returnURL
    }
}
