import Foundation
import ProviderWire
import _CryptoExtras

/// Where and as whom the checkout calls Antom: the gateway, the client id, the merchant's
/// private key (signs requests) and Antom's public key (verifies answers and notifications).
public struct AntomConfiguration: Sendable {
    /// Antom's gateway for Asia; `--antom-url` changes it.
    public static let gateway = "https://open-sea-global.alipay.com"

    public var baseURL: String
    public var clientID: String
    public var privateKey: _RSA.Signing.PrivateKey
    public var providerPublicKey: _RSA.Signing.PublicKey

    public init(baseURL: String, clientID: String, privateKey: _RSA.Signing.PrivateKey, providerPublicKey: _RSA.Signing.PublicKey) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.clientID = clientID
        self.privateKey = privateKey
        self.providerPublicKey = providerPublicKey
    }

    /// The embedded sandbox's ready test client at `baseURL`.
    public static func sandbox(baseURL: String) -> AntomConfiguration {
        // The embedded keys are constants checked by tests; they always parse.
        let privateKey = try! AntomSignature.privateKey(AntomSandboxCredentials.clientPrivateKey)
        let publicKey = try! AntomSignature.publicKey(AntomSandboxCredentials.sandboxPublicKey)
        return AntomConfiguration(baseURL: baseURL, clientID: AntomSandboxCredentials.clientID, privateKey: privateKey, providerPublicKey: publicKey)
    }

    /// `/ams/api/v1/…`, or `/ams/sandbox/api/v1/…` for a `SANDBOX_` client id.
    public func path(_ endpoint: String) -> String { AntomPaths.path(endpoint, clientID: clientID) }
}
