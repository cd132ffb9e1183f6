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
    /// The merchant's key; the sandbox's test client's is parsed when it first signs, not as
    /// each session starts (an RSA key is 2 million instructions to read, whichever provider the
    /// session then uses).
    public var privateKey: _RSA.Signing.PrivateKey {
        get {
            switch signingKey {
            case .sandboxClient: Self.sandboxClientKey
            case .given(let key): key
            }
        }
        set { signingKey = .given(newValue) }
    }
    public var providerPublicKey: _RSA.Signing.PublicKey

    private enum SigningKey: Sendable {
        case sandboxClient
        case given(_RSA.Signing.PrivateKey)
    }

    private var signingKey: SigningKey

    // The embedded keys are constants checked by tests; they always parse.
    private static let sandboxClientKey = try! AntomSignature.privateKey(AntomSandboxCredentials.clientPrivateKey)

    public init(baseURL: String, clientID: String, privateKey: _RSA.Signing.PrivateKey, providerPublicKey: _RSA.Signing.PublicKey) {
        self.init(baseURL: baseURL, clientID: clientID, signingKey: .given(privateKey), providerPublicKey: providerPublicKey)
    }

    private init(baseURL: String, clientID: String, signingKey: SigningKey, providerPublicKey: _RSA.Signing.PublicKey) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.clientID = clientID
        self.signingKey = signingKey
        self.providerPublicKey = providerPublicKey
    }

    /// The embedded sandbox's ready test client at `baseURL`.
    public static func sandbox(baseURL: String) -> AntomConfiguration {
        let publicKey = try! AntomSignature.publicKey(AntomSandboxCredentials.sandboxPublicKey)
        return AntomConfiguration(
            baseURL: baseURL, clientID: AntomSandboxCredentials.clientID, signingKey: .sandboxClient, providerPublicKey: publicKey)
    }

    /// `/ams/api/v1/…`, or `/ams/sandbox/api/v1/…` for a `SANDBOX_` client id.
    public func path(_ endpoint: String) -> String { AntomPaths.path(endpoint, clientID: clientID) }
}
