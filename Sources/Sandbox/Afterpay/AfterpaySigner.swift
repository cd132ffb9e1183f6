import Foundation
import JWTKit
import ProviderWire

/// Signs payments as Afterpay does: ES256 JWTs with a `kid`, verifiable with the public key.
public struct AfterpaySigner: Sendable {
    public static let keyID = "afterpay-sandbox-es256"

    public let privateKey: ES256PrivateKey
    private let keys: JWTKeyCollection

    public init() async {
        privateKey = ES256PrivateKey()
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
