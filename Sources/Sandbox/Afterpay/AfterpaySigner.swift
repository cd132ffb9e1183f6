import Crypto
import Foundation
import JWTKit
import ProviderWire

/// Signs payments as Afterpay does: ES256 JWTs with a `kid`, verifiable with the public key.
/// The key is the sandbox's own and fixed (as Antom's and the wallet's are): a JWT signed by one
/// instance on a shared store verifies on another, and after a restart.
public struct AfterpaySigner: Sendable {
    public static let keyID = "afterpay-sandbox-es256"

    /// The phrase whose hash is the private scalar (a P-256 scalar, as any 32 bytes below the
    /// group order are).
    static let sandboxKeyPhrase = "TerminalCheckout Afterpay sandbox ES256 signing key v1"

    /// The sandbox's key, from its scalar's bytes as they are: through `Data(sequence)` and a
    /// base64 string, two casts at each sandbox's start scanned every conformance in the binary.
    static func sandboxKey() throws -> ES256PrivateKey {
        try ES256PrivateKey(backing: P256.Signing.PrivateKey(rawRepresentation: SHA256.hash(data: Array(sandboxKeyPhrase.utf8))))
    }

    public let privateKey: ES256PrivateKey
    private let keys: JWTKeyCollection

    public init() async {
        privateKey = (try? Self.sandboxKey()) ?? ES256PrivateKey()
        keys = JWTKeyCollection()
        await keys.add(ecdsa: privateKey, kid: JWKIdentifier(string: Self.keyID))
    }

    /// The public key, for clients and tests that verify signatures.
    public var publicKey: ES256PublicKey { privateKey.publicKey }

    func sign(_ payment: AfterpaySignedPayment) async throws -> String {
        try await keys.sign(payment, kid: JWKIdentifier(string: Self.keyID))
    }

    /// The payment a JWT carries, if it was signed here.
    func verify(_ jwt: String) async -> AfterpaySignedPayment? {
        try? await keys.verify(jwt, as: AfterpaySignedPayment.self)
    }
}
