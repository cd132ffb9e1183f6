import Foundation
import ProviderWire

extension AdyenPayments {
    /// Apple Pay with a token of this sandbox's `POST /wallet/tokens`. Adyen decrypts the token
    /// before any payment exists, so a token that is not genuine or has expired (5_002), or is for
    /// another amount (5_001), is a 422 that keeps no record and leaves the key free to retry. A
    /// genuine one is Authorised (the card ending 0002 Refused; the magic amounts apply) and
    /// pays once: the token is consumed like a grant, under the store's lock.
    func payWithApplePay(_ valid: AdyenValidPayment, idempotencyKey: String?) async throws -> AdyenEndpoint.Answer {
        guard !valid.storePaymentMethod else {
            throw AdyenRejection.invalid("14_0", "storePaymentMethod is not supported for applepay in this sandbox.")
        }
        guard let card = endpoint.cardTokens?.card(fromPaymentData: valid.method.applePayToken ?? "") else {
            throw AdyenRejection.invalid(
                "5_002", "Invalid Apple Pay token: it is not a token this sandbox issued (POST /wallet/tokens), or it was altered.")
        }
        let now = endpoint.settings.now()
        if let problem = card.problem(paying: valid.amount.value, currency: valid.amount.currency, at: now) {
            switch problem {
            case .expired: throw AdyenRejection.invalid("5_002", "Invalid Apple Pay token: \(problem).")
            case .amountMismatch: throw AdyenRejection.invalid("5_001", "Apple Pay token amount-mismatch: \(problem).")
            }
        }
        try await endpoint.payments.evictDue(now: now, limits: endpoint.settings.limits)
        let brand = card.adyenApplePayBrand
        var payment = AdyenPaymentStore.Payment(
            pspReference: AdyenIDs.pspReference(), merchantAccount: valid.merchantAccount, reference: valid.reference, amount: valid.amount,
            idempotencyKey: idempotencyKey, grantID: "applepay:\(card.transactionId)", shopperReference: valid.shopperReference,
            resultCode: .authorised)
        payment.paymentMethod = AdyenResponsePaymentMethod(type: AdyenApplePayDetails.type, brand: brand)
        payment.additionalData = ["cardSummary": card.last4, "paymentMethod": brand]
        if card.isDeclined { return AdyenEndpoint.Answer(try await finish(refuse(payment, "Refused"), consumesGrant: false, now: now).response) }
        if card.notSupported != nil {
            // The merchant's capabilities (carried in the token) do not take this card or cryptogram.
            var refused = refuse(payment, "Not supported")
            refused.refusalReasonCode = "10"
            return AdyenEndpoint.Answer(try await finish(refused, consumesGrant: false, now: now).response)
        }
        apply(magic: valid.amount.value, to: &payment)
        if payment.resultCode == .redirectShopper { payment.resultCode = .authorised }  // the redirect magic is Cash App Pay's
        let consumes = [.authorised, .received].contains(payment.resultCode)
        switch try await endpoint.payments.add(payment, consumesGrant: consumes, now: now, limits: endpoint.settings.limits) {
        case .grantAlreadyUsed(let other):
            return AdyenEndpoint.Answer(try await finish(refuse(payment, "Apple Pay token already used (by payment \(other))"), consumesGrant: false, now: now).response)
        case .added(let added):
            payment = added
        }
        try await notify(payment)
        return AdyenEndpoint.Answer(payment.response)
    }
}

extension TokenizedCard {
    /// Adyen's Apple Pay variant of the card's brand: `visa_applepay`, `mc_applepay`, …
    var adyenApplePayBrand: String {
        // Mastercard is `mc`; amex, discover, jcb, maestro and visa keep the network's name.
        (network == "mastercard" ? "mc" : network) + "_applepay"
    }
}
