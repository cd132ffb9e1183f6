import CheckoutModel
import JWTKit
import ProviderWire

/// What the client needs from sign-payment's JWT: read without verifying the signature (as
/// the official SDKs do), with the amount converted to cents exactly ("19.99" → 1999, where
/// the official SDK's floating point gives 1998).
public struct SignedPayment: Sendable, Hashable {
    public let jwt: String
    public let amount: Money
    public let redirectURL: String
    public let merchantID: String
    public let brandID: String
    public let token: String

    public init(signed: AfterpaySignResponse) async throws(AfterpayFailure) {
        let claims: AfterpaySignedPayment
        do { claims = try await JWTKeyCollection().unverified(signed.jwtToken, as: AfterpaySignedPayment.self) } catch {
            throw .undecodable(status: 200, detail: "jwtToken is not a JWT with the documented payload: \(error)")
        }
        guard let currency = Currency.withCode(claims.amount.currency) else {
            throw .undecodable(status: 200, detail: "jwtToken names unknown currency \(claims.amount.currency)")
        }
        do { amount = try Money(decimal: claims.amount.amount, currency: currency) } catch {
            throw .undecodable(status: 200, detail: "jwtToken amount: \(error)")
        }
        jwt = signed.jwtToken
        redirectURL = claims.redirectUrl
        merchantID = claims.externalMerchantId
        brandID = signed.externalBrandId
        token = claims.token
    }
}
