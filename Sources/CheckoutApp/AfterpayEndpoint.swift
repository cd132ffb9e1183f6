import Foundation
import ProviderClients
import Sandbox

/// Where Afterpay calls go: the sandbox (embedded or shared), or the user's merchant server
/// and Afterpay's signing host with their credentials.
public struct AfterpayEndpointOptions: Sendable {
    public var merchantURL: String?
    public var signingURL: String?
    public var merchantID: String?
    public var secretKey: String?

    public init(merchantURL: String? = nil, signingURL: String? = nil, merchantID: String? = nil, secretKey: String? = nil) {
        self.merchantURL = merchantURL
        self.signingURL = signingURL
        self.merchantID = merchantID
        self.secretKey = secretKey
    }

    /// Fills credentials from AFTERPAY_MERCHANT_ID / AFTERPAY_SECRET_KEY where flags left them out.
    public func withEnvironment(_ environment: [String: String]) -> AfterpayEndpointOptions {
        var copy = self
        copy.merchantID = merchantID ?? environment.nonEmpty("AFTERPAY_MERCHANT_ID")
        copy.secretKey = secretKey ?? environment.nonEmpty("AFTERPAY_SECRET_KEY")
        return copy
    }

    public var problem: String? {
        guard merchantURL != nil || signingURL != nil else { return nil }
        for (flag, value) in [("--afterpay-url", merchantURL), ("--afterpay-signing-url", signingURL)] {
            guard let value, let url = URL(string: value), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                return "\(flag) must be an http(s) URL when either Afterpay URL is given"
            }
        }
        if merchantID == nil || secretKey == nil {
            return "--afterpay-url needs your merchant credentials: --afterpay-merchant-id and --afterpay-secret-key (or AFTERPAY_MERCHANT_ID and AFTERPAY_SECRET_KEY)"
        }
        return nil
    }

    /// The configuration, given the sandbox's URL when one serves Afterpay.
    func configuration(sandboxURL: String?) -> AfterpayConfiguration {
        let merchant = AfterpayMerchant.sandbox
        return AfterpayConfiguration(
            merchantBaseURL: merchantURL ?? sandboxURL ?? AfterpayConfiguration.sandboxMerchantHost,
            signingBaseURL: signingURL ?? sandboxURL ?? AfterpayConfiguration.sandboxSigningHost,
            merchantID: merchantID ?? merchant.merchantID, secretKey: secretKey ?? merchant.secretKey)
    }
}
