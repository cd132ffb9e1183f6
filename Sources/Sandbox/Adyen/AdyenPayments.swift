import Foundation
import ProviderWire

/// `POST /payments`: checks the body, decides what pays (or why it is refused), applies the
/// magic amounts, keeps the payment (a grant pays once), stores the method when asked, and
/// sends the AUTHORISATION (and token) webhooks.
struct AdyenPayments {
    let endpoint: AdyenEndpoint
    /// The sandbox's origin as the client reached it, for the redirect action's page.
    var baseURL = "http://127.0.0.1"

    private var settings: SandboxSettings { endpoint.settings }

    func pay(_ data: Data, idempotencyKey: String?) async throws -> AdyenEndpoint.Answer {
        let body = try endpoint.reader.decode(AdyenIncoming.Payment.self, from: data)
        let valid = try AdyenPaymentValidation.validate(body)
        if valid.method.type == AdyenApplePayDetails.type { return try await payWithApplePay(valid, idempotencyKey: idempotencyKey) }
        return AdyenEndpoint.Answer(try await pay(valid, idempotencyKey: idempotencyKey).response)
    }

    /// What `/payments` and a session's payments share once the body is valid: the funding
    /// (grant or stored method) checks, the magic amounts, the payment kept (a grant pays
    /// once), the method stored when asked, and the webhooks. The payment as kept.
    func pay(_ valid: AdyenValidPayment, idempotencyKey: String?) async throws -> AdyenPaymentStore.Payment {
        if valid.storePaymentMethod {
            guard valid.shopperReference != nil else {
                throw AdyenRejection.invalid("14_0", "storePaymentMethod needs the shopperReference to store the method for.")
            }
            guard valid.method.onFileGrantId != nil else {
                throw AdyenRejection.invalid(
                    "14_0", "storePaymentMethod needs paymentMethod.onFileGrantId (the EXTENDED grant of an ON_FILE_PAYMENT action), customerId and cashtag.")
            }
        }
        let now = settings.now()
        try await endpoint.payments.evictDue(now: now, limits: settings.limits)
        try await endpoint.storedMethods.evictDue(now: now, limits: settings.limits)

        var payment = AdyenPaymentStore.Payment(
            pspReference: AdyenIDs.pspReference(), merchantAccount: valid.merchantAccount, reference: valid.reference, amount: valid.amount,
            idempotencyKey: idempotencyKey, grantID: valid.method.grantId ?? valid.method.onFileGrantId, shopperReference: valid.shopperReference,
            resultCode: .authorised)
        let funding: AdyenFunding
        do {
            funding = try await AdyenFunding.decide(valid, customerRequests: endpoint.customerRequests, storedMethods: endpoint.storedMethods, now: now)
        } catch let refusal as AdyenFunding.Refusal {
            return try await finish(refuse(payment, refusal.reason), consumesGrant: false, now: now)
        }
        apply(magic: valid.amount.value, to: &payment)
        if payment.resultCode == .received {
            // Decided by time in the store (exactly once across instances, and after a restart).
            payment.decidesAt = Date().addingTimeInterval(settings.adyen.asyncResultDelay)
            payment.decidesAuthorised = valid.amount.value == AdyenMagic.receivedThenAuthorisedValue
        }
        if payment.resultCode == .redirectShopper { payment.awaitRedirect(baseURL: baseURL, returnUrl: valid.returnUrl) }
        if payment.resultCode == .authorised, let cashtag = funding.cashtag { payment.additionalData = ["cashapp.cashtag": cashtag] }
        let consumes = funding.consumedGrant != nil && [.authorised, .received, .redirectShopper].contains(payment.resultCode)
        switch try await endpoint.payments.add(payment, consumesGrant: consumes, now: now, limits: settings.limits) {
        case .grantAlreadyUsed(let other):
            return try await finish(refuse(payment, "grant already used (by payment \(other))"), consumesGrant: false, now: now)
        case .added(let added):
            payment = added
        }
        if valid.storePaymentMethod, let storable = funding.storable, let shopper = valid.shopperReference {
            if [.authorised, .received].contains(payment.resultCode) {
                payment = try await store(storable, shopper: shopper, in: payment, now: now)
            } else if payment.resultCode == .redirectShopper {
                // Stored once the shopper completes the action (/payments/details).
                let pending = AdyenPaymentStore.PendingStore(
                    grantID: storable.grantID, customerID: storable.customerID, cashtag: storable.cashtag, shopperReference: shopper)
                payment = try await endpoint.payments.update(payment.pspReference) { stored in
                    stored.pendingStore = pending
                    return stored
                } ?? payment
            }
        }
        try await notify(payment)
        return payment
    }

    /// Completes a payment that answered `RedirectShopper` with the `redirectResult` its action's
    /// page handed back: Authorised, the method stored if asked, AUTHORISATION sent. A payment
    /// already completed answers as it stands. Nil when `redirectResult` is not one of this
    /// sandbox's (then it is read as a pspReference, as before).
    func complete(redirectResult: String) async throws -> AdyenPaymentStore.Payment? {
        guard let (psp, nonce) = AdyenPaymentStore.Payment.decodeRedirectResult(redirectResult) else { return nil }
        let now = settings.now()
        try await endpoint.payments.evictDue(now: now, limits: settings.limits)
        guard let payment = try await endpoint.payments.payment(psp) else { return nil }
        guard payment.redirectNonce == nonce else {
            throw AdyenRejection.invalid("14_0", "details.redirectResult is not the one payment \(psp)'s redirect handed back.")
        }
        let completed = try await endpoint.payments.update(psp) { stored -> AdyenPaymentStore.Payment? in
            guard stored.resultCode == .redirectShopper else { return nil }
            stored.resultCode = .authorised
            stored.action = nil
            return stored
        } ?? nil
        guard var completed else { return try await endpoint.payments.payment(psp) ?? payment }
        if let pending = completed.pendingStore {
            completed = try await store(
                (pending.grantID, pending.customerID, pending.cashtag), shopper: pending.shopperReference, in: completed, now: now)
        }
        try await notify(completed)
        return completed
    }

    /// 70.01–70.05 (in any currency) decide the result; any other amount is Authorised.
    func apply(magic value: Int, to payment: inout AdyenPaymentStore.Payment) {
        switch value {
        case AdyenMagic.refusedValue:
            payment.resultCode = .refused
            payment.refusalReason = "Refused"
            payment.refusalReasonCode = "2"
        case AdyenMagic.errorValue:
            payment.resultCode = .error
            payment.refusalReason = "Acquirer Error"
            payment.refusalReasonCode = "4"
        case AdyenMagic.cancelledValue:
            payment.resultCode = .cancelled
        case AdyenMagic.receivedThenAuthorisedValue, AdyenMagic.receivedThenRefusedValue:
            payment.resultCode = .received
        case AdyenMagic.redirectValue:
            payment.resultCode = .redirectShopper
        default:
            break
        }
    }

    func refuse(_ payment: AdyenPaymentStore.Payment, _ reason: String) -> AdyenPaymentStore.Payment {
        var refused = payment
        refused.resultCode = .refused
        refused.refusalReason = reason
        refused.refusalReasonCode = "2"
        return refused
    }

    /// Keeps a payment that consumes nothing (a refusal): the payment as kept.
    func finish(_ payment: AdyenPaymentStore.Payment, consumesGrant: Bool, now: Date) async throws(SandboxStoreUnavailable) -> AdyenPaymentStore.Payment {
        if case .added(let added) = try await endpoint.payments.add(payment, consumesGrant: consumesGrant, now: now, limits: settings.limits) {
            try await notify(added)
            return added
        }
        return payment
    }

    /// Stores the EXTENDED grant for the shopper and puts the token in additionalData.
    func store(
        _ storable: (grantID: String, customerID: String, cashtag: String), shopper: String, in payment: AdyenPaymentStore.Payment, now: Date
    ) async throws(SandboxStoreUnavailable) -> AdyenPaymentStore.Payment {
        let (method, operation) = try await endpoint.storedMethods.store(
            shopperReference: shopper, merchantAccount: payment.merchantAccount, cashtag: storable.cashtag, customerID: storable.customerID,
            grantID: storable.grantID, now: now, limits: settings.limits)
        let tokenization = [
            "tokenization.storedPaymentMethodId": method.id, "tokenization.shopperReference": shopper,
            "tokenization.store.operationType": operation, "cashapp.cashtag": method.cashtag, "recurring.recurringDetailReference": method.id,
            "recurring.shopperReference": shopper,
        ]
        let updated = try await endpoint.payments.update(payment.pspReference) { stored in
            stored.additionalData = (stored.additionalData ?? [:]).merging(tokenization) { _, new in new }
            return stored
        } ?? payment
        if operation == "created" {
            try await endpoint.notifier.token(
                AdyenTokenNotification.created, merchantAccount: payment.merchantAccount, shopperReference: shopper,
                storedPaymentMethodID: method.id, operation: operation)
        }
        return updated
    }

    /// AUTHORISATION now for a decided payment. A Received one is decided by time in the store
    /// (`AdyenPaymentStore.Payment.decide`), which sends its AUTHORISATION then.
    func notify(_ payment: AdyenPaymentStore.Payment) async throws(SandboxStoreUnavailable) {
        switch payment.resultCode {
        case .authorised, .refused:
            try await authorisation(payment)
        default:
            break
        }
    }

    func authorisation(_ payment: AdyenPaymentStore.Payment) async throws(SandboxStoreUnavailable) {
        let authorised = payment.resultCode == .authorised
        var extra: [String: String] = [:]
        // Not `cashapp.cashtag`: Adyen gives the $cashtag in the /payments(/details) answer's
        // additionalData only; Webhooks-v1 does not allow it in a notification's additionalData.
        for key in ["tokenization.storedPaymentMethodId", "tokenization.shopperReference", "recurring.recurringDetailReference"] {
            if let value = payment.additionalData?[key] { extra[key] = value }
        }
        try await endpoint.notifier.standard(
            "AUTHORISATION", pspReference: payment.pspReference, merchantAccount: payment.merchantAccount, merchantReference: payment.reference,
            amount: payment.amount, success: authorised, reason: authorised ? nil : payment.refusalReason, additionalData: extra)
    }
}
