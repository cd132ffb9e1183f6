import JWTKit

/// The signed payment is the JWT's payload as it stands; it has no claims to check beyond
/// the signature (Afterpay puts no expiry in it).
extension AfterpaySignedPayment: JWTPayload {
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
