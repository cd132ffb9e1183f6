/// The one merchant the sandbox's Afterpay knows: credentials, limits and Cash App ids.
public struct AfterpayMerchant: Sendable, Hashable {
    public var merchantID: String
    public var secretKey: String
    /// Order limits in cents; outside them a checkout is `unsupported_payment_type`.
    public var minimumCents: Int
    public var maximumCents: Int
    /// The Cash App brand and merchant the signed payment names.
    public var brandID: String
    public var externalMerchantID: String
    /// The merchant public id (MPID) Get Configuration answers with `include=publicid`.
    public var publicID: String = "afterpaysandbox-mpid"
    /// The brand's name in Cash App, as Get Configuration Mappings answers it.
    public var brandName: String = "Afterpay Sandbox Shop"

    public init(
        merchantID: String = "100101", secretKey: String = "sandbox-secret-key", minimumCents: Int = 100,
        maximumCents: Int = 200_000, brandID: String = "BRAND_afterpaysandbox", externalMerchantID: String = "MMI_afterpaysandbox"
    ) {
        self.merchantID = merchantID
        self.secretKey = secretKey
        self.minimumCents = minimumCents
        self.maximumCents = maximumCents
        self.brandID = brandID
        self.externalMerchantID = externalMerchantID
    }

    public static let sandbox = AfterpayMerchant()
}
