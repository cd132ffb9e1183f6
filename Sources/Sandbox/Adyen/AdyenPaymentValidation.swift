import CheckoutModel
import Foundation
import ProviderWire

/// A `/payments` body whose fields are all present and in range.
struct AdyenValidPayment: Sendable {
    let amount: AdyenAmount
    let merchantAccount: String
    let method: AdyenIncoming.CashApp
    let reference: String
    let returnUrl: String
    let shopperReference: String?
    let storePaymentMethod: Bool
}

/// Adyen's checks on a `/payments` body, with its error codes and messages.
enum AdyenPaymentValidation {
    /// Adyen's limits: reference 80, returnUrl 8 000, shopperReference 256, Cash App ids 64.
    static let maxReferenceLength = 80
    static let maxReturnURLLength = 8_000
    static let maxShopperReferenceLength = 256
    static let maxIDLength = 64
    /// `ApplePayDetails.applePayToken`'s documented limit.
    static let maxApplePayTokenLength = 10_000

    static func validate(_ body: AdyenIncoming.Payment) throws(AdyenRejection) -> AdyenValidPayment {
        let order = try checkOrder(
            merchantAccount: body.merchantAccount, amount: body.amount, reference: body.reference, returnUrl: body.returnUrl,
            shopperReference: body.shopperReference, requirePaymentMethod: body.paymentMethod == nil)
        guard let method = body.paymentMethod else {
            throw AdyenRejection.invalid("14_0", "Required field 'paymentMethod' is not provided.")
        }
        try checkMethod(method)
        return AdyenValidPayment(
            amount: order.amount, merchantAccount: order.merchantAccount, method: method, reference: order.reference, returnUrl: order.returnUrl,
            shopperReference: body.shopperReference, storePaymentMethod: body.storePaymentMethod ?? false)
    }

    /// What a payment and a session are both made of: merchantAccount, amount, reference,
    /// returnUrl and shopperReference, checked in the order Adyen checks them (a missing
    /// paymentMethod, when `requirePaymentMethod`, right after the amount).
    static func checkOrder(
        merchantAccount: String?, amount: AdyenAmount?, reference: String?, returnUrl: String?, shopperReference: String?,
        requirePaymentMethod: Bool = false
    ) throws(AdyenRejection) -> (merchantAccount: String, amount: AdyenAmount, reference: String, returnUrl: String) {
        guard let merchantAccount else {
            throw AdyenRejection(.badRequest, "702", "Required field 'merchantAccount' is not provided.")
        }
        try AdyenRequestReader.checkMerchant(merchantAccount)
        guard let amount else { throw AdyenRejection.invalid("100", "Required field 'amount' is not provided.") }
        try checkAmount(amount)
        if requirePaymentMethod { throw AdyenRejection.invalid("14_0", "Required field 'paymentMethod' is not provided.") }
        guard let reference, !reference.isEmpty else { throw AdyenRejection.invalid("130", "Required field 'reference' is not provided.") }
        guard reference.count <= maxReferenceLength else {
            throw AdyenRejection.invalid("130", "Field 'reference' is longer than \(maxReferenceLength) characters.")
        }
        guard let returnUrl, !returnUrl.isEmpty else { throw AdyenRejection.invalid("14_030", "Return URL is missing.") }
        guard returnUrl.utf8.count <= maxReturnURLLength, URLComponents(string: returnUrl)?.scheme != nil else {
            throw AdyenRejection.invalid("14_030", "Return URL is not a URL of at most \(maxReturnURLLength) characters.")
        }
        if let shopper = shopperReference {
            guard !shopper.isEmpty, shopper.count <= maxShopperReferenceLength else {
                throw AdyenRejection.invalid("14_0", "Field 'shopperReference' must be 1 to \(maxShopperReferenceLength) characters.")
            }
        }
        return (merchantAccount, amount, reference, returnUrl)
    }

    /// A currency Adyen knows and a value from 0 to the sandbox's ceiling.
    static func checkAmount(_ amount: AdyenAmount) throws(AdyenRejection) {
        guard Currency.withCode(amount.currency) != nil else {
            throw AdyenRejection.invalid("138", "Invalid currency: '\(amount.currency.prefix(8))' is not an ISO 4217 code this sandbox knows, e.g. \"USD\".")
        }
        guard (0...SandboxLimits.maxAmountMinorUnits).contains(amount.value) else {
            throw AdyenRejection.invalid("137", "Invalid amount specified: value must be 0 to \(SandboxLimits.maxAmountMinorUnits) minor units.")
        }
    }

    static func checkMethod(_ method: AdyenIncoming.CashApp) throws(AdyenRejection) {
        if method.type == AdyenApplePayDetails.type { return try checkApplePay(method) }
        guard method.type == AdyenCashAppDetails.type else {
            throw AdyenRejection.invalid(
                "14_0", "paymentMethod.type '\(method.type?.prefix(32) ?? "")' is not supported: this sandbox takes \"cashapp\" or \"applepay\".")
        }
        let ids: [(String, String?)] = [
            ("grantId", method.grantId), ("onFileGrantId", method.onFileGrantId), ("customerId", method.customerId),
            ("cashtag", method.cashtag), ("storedPaymentMethodId", method.storedPaymentMethodId),
            ("recurringDetailReference", method.recurringDetailReference),
        ]
        for (field, value) in ids {
            if let value, value.isEmpty || value.count > maxIDLength {
                throw AdyenRejection.invalid("14_0", "Field 'paymentMethod.\(field)' must be 1 to \(maxIDLength) characters.")
            }
        }
        guard method.grantId != nil || method.onFileGrantId != nil || method.storedPaymentMethodId != nil || method.recurringDetailReference != nil
        else {
            throw AdyenRejection.invalid(
                "14_0", "paymentMethod needs a grantId (ONE_TIME grant), an onFileGrantId (EXTENDED grant) or a storedPaymentMethodId.")
        }
    }

    /// A token present and within Adyen's limit; whether it is genuine is decided when paying.
    private static func checkApplePay(_ method: AdyenIncoming.CashApp) throws(AdyenRejection) {
        guard let token = method.applePayToken, !token.isEmpty else {
            throw AdyenRejection.invalid("14_0", "Required field 'paymentMethod.applePayToken' is not provided.")
        }
        guard token.utf8.count <= maxApplePayTokenLength else {
            throw AdyenRejection.invalid("14_0", "Field 'paymentMethod.applePayToken' is longer than \(maxApplePayTokenLength) characters.")
        }
    }
}
