/// Where Adyen Checkout API calls go and with which credentials.
public struct AdyenConfiguration: Sendable, Hashable {
    /// Adyen's test environment; `--adyen-url` replaces it.
    public static let testBaseURL = "https://checkout-test.adyen.com/v71"
    public static let apiVersionPath = "/v71"
    /// Adyen's test client-key host, where the components call with the client key
    /// (`AdyenSessionPaths.component` adds `/checkoutshopper/v1/…`).
    public static let testComponentBaseURL = "https://checkoutshopper-test.adyen.com"

    /// Up to and including the version, e.g. `https://checkout-test.adyen.com/v71`.
    public var baseURL: String
    public var apiKey: String
    public var merchantAccount: String
    /// Whose stored methods are listed and created.
    public var shopperReference: String
    /// Where Adyen would send the shopper back (required by `/payments`; unused by Cash App Pay in app).
    public var returnURL: String
    /// The client key (`test_…`) the component identifies the merchant with on the client-key
    /// host. Not a secret in Adyen's model (it ships in apps); the API key never goes there.
    public var clientKey: String
    /// The client-key host's origin, e.g. `https://checkoutshopper-test.adyen.com`.
    public var componentBaseURL: String

    public init(
        baseURL: String, apiKey: String, merchantAccount: String, shopperReference: String, returnURL: String = "terminalcheckout://adyen/return",
        clientKey: String = "", componentBaseURL: String? = nil
    ) {
        self.baseURL = Self.trimmed(baseURL)
        self.apiKey = apiKey
        self.merchantAccount = merchantAccount
        self.shopperReference = shopperReference
        self.returnURL = returnURL
        self.clientKey = clientKey
        self.componentBaseURL = Self.trimmed(componentBaseURL ?? Self.componentBaseURL(for: baseURL))
    }

    /// The client-key host that goes with a Checkout API base: Adyen's test or live
    /// `checkoutshopper` host for its own, else the same origin (the sandbox serves both).
    public static func componentBaseURL(for baseURL: String) -> String {
        let base = trimmed(baseURL)
        if base.contains("checkout-test.adyen.com") { return testComponentBaseURL }
        if base.contains("-checkout-live.adyenpayments.com") || base.contains("checkout-live.adyen.com") {
            return "https://checkoutshopper-live.adyen.com"
        }
        // A sandbox: `http://127.0.0.1:8080/v71` → `http://127.0.0.1:8080`.
        var root = base
        if let slash = root.range(of: "/", options: .backwards), root[slash.upperBound...].first == "v",
            root[slash.upperBound...].dropFirst().allSatisfy(\.isNumber), !root[slash.upperBound...].dropFirst().isEmpty
        {
            root = String(root[..<slash.lowerBound])
        }
        return root
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
