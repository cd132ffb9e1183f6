/// Where the Afterpay calls go. In production the checkout and capture are the merchant's
/// backend (with its Afterpay credentials), while signing and validating are Afterpay's
/// public API, so the two have separate base URLs.
public struct AfterpayConfiguration: Sendable, Hashable {
    public static let sandboxMerchantHost = "https://global-api-sandbox.afterpay.com"
    public static let sandboxSigningHost = "https://api-plus.us-sandbox.afterpay.com"

    /// Host of `POST /v2/checkouts` and `POST /v2/payments/capture` (HTTP Basic).
    public var merchantBaseURL: String
    /// Host of `sign-payment` and `validate-payment` (no credentials).
    public var signingBaseURL: String
    public var merchantID: String
    public var secretKey: String

    public init(merchantBaseURL: String, signingBaseURL: String, merchantID: String, secretKey: String) {
        self.merchantBaseURL = Self.trimmed(merchantBaseURL)
        self.signingBaseURL = Self.trimmed(signingBaseURL)
        self.merchantID = merchantID
        self.secretKey = secretKey
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
