import CheckoutModel
import Foundation
import ProviderWire

/// What pays for a payment: an approved Cash App grant of this sandbox, or a stored method.
/// Anything else refuses the payment with a reason saying why (resultCode Refused).
struct AdyenFunding: Sendable {
    /// The grant the payment consumes (a ONE_TIME grant pays once); nil for on-file payments.
    let consumedGrant: String?
    /// The grant recorded on the payment, for the ledger and the used-grant check.
    let grantID: String?
    let customerID: String
    let cashtag: String?
    /// The EXTENDED grant to store as a method, when the shopper asked to store one.
    let storable: (grantID: String, customerID: String, cashtag: String)?

    /// Why nothing pays (the store's failures are thrown as they are).
    struct Refusal: Error {
        let reason: String
    }

    static func decide(
        _ payment: AdyenValidPayment, customerRequests: CustomerRequestStore, storedMethods: AdyenStoredMethodStore, now: Date
    ) async throws -> AdyenFunding {
        let method = payment.method
        var storable: (grantID: String, customerID: String, cashtag: String)?
        if let onFile = method.onFileGrantId {
            let (request, grant) = try await approvedGrant(onFile, type: .EXTENDED, customerRequests: customerRequests, now: now)
            if let customer = method.customerId, customer != grant.customerID {
                throw Refusal(reason: "grant \(onFile) belongs to another customer than \(customer)")
            }
            storable = (onFile, grant.customerID, method.cashtag ?? request.customerProfile?.cashtag ?? SandboxMagic.customerCashtag)
        }
        if let grantID = method.grantId {
            let (request, grant) = try await approvedGrant(grantID, type: .ONE_TIME, customerRequests: customerRequests, now: now)
            let grantAmount = AdyenAmount(currency: grant.action.currency ?? "", value: grant.action.amount ?? -1)
            guard grantAmount == payment.amount else {
                throw Refusal(reason: "grant is for \(Self.describe(grantAmount)), payment is \(Self.describe(payment.amount))")
            }
            return AdyenFunding(
                consumedGrant: grantID, grantID: grantID, customerID: grant.customerID, cashtag: request.customerProfile?.cashtag,
                storable: storable)
        }
        if let storable {
            // An on-file payment (or a zero-value one that only stores): the EXTENDED grant pays.
            return AdyenFunding(consumedGrant: nil, grantID: storable.grantID, customerID: storable.customerID, cashtag: storable.cashtag, storable: storable)
        }
        let storedID = method.storedPaymentMethodId ?? method.recurringDetailReference ?? ""
        guard let shopper = payment.shopperReference else {
            throw Refusal(reason: "paying with storedPaymentMethodId \(storedID) needs the shopperReference it was stored for")
        }
        guard let stored = try await storedMethods.method(id: storedID), stored.shopperReference == shopper, stored.merchantAccount == payment.merchantAccount
        else {
            throw Refusal(reason: "storedPaymentMethodId \(storedID) is not a stored method of shopper \(shopper)")
        }
        guard !stored.disabled else { throw Refusal(reason: "stored method \(storedID) was disabled by the shopper") }
        return AdyenFunding(consumedGrant: nil, grantID: stored.grantID, customerID: stored.customerID, cashtag: stored.cashtag, storable: nil)
    }

    private static func approvedGrant(
        _ id: String, type: Grant.GrantType, customerRequests: CustomerRequestStore, now: Date
    ) async throws -> (CustomerRequest, Grant) {
        guard let (request, grant) = try await customerRequests.grant(id: id), request.status == .APPROVED else {
            throw Refusal(reason: "grant \(id) is not an approved grant of this sandbox")
        }
        guard grant.type == type else { throw Refusal(reason: "grant \(id) is \(grant.type.rawValue), this field takes a \(type.rawValue) grant") }
        guard grant.action.scopeID == AdyenCashAppConfiguration.scopeID else {
            throw Refusal(reason: "grant \(id) is for scope \(grant.action.scopeID), not this merchant's \(AdyenCashAppConfiguration.scopeID)")
        }
        guard grant.status == .ACTIVE, grant.expiresAt.map({ $0 > now }) ?? true else { throw Refusal(reason: "grant \(id) is no longer active") }
        return (request, grant)
    }

    /// "45.05 USD": the value with its currency's decimals.
    static func describe(_ amount: AdyenAmount) -> String {
        let digits = Currency.withCode(amount.currency)?.minorUnitDigits ?? 2
        guard digits > 0 else { return "\(amount.value) \(amount.currency)" }
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let fraction = String(abs(amount.value) % scale)
        let padded = String(repeating: "0", count: digits - fraction.count) + fraction
        return "\(amount.value < 0 ? "-" : "")\(abs(amount.value) / scale).\(padded) \(amount.currency)"
    }
}
