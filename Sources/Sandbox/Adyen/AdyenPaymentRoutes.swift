import Foundation
import Hummingbird
import ProviderWire

/// `POST /vNN/paymentMethods`, `/vNN/payments` and `/vNN/payments/details`.
struct AdyenPaymentRoutes {
    let endpoint: AdyenEndpoint

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.post(":version/paymentMethods") { request, context in
            try await endpoint.post(request, context) { body, _ throws in try await paymentMethods(body) }
        }
        router.post(":version/payments") { request, context in
            try await endpoint.post(request, context) { body, key throws in try await AdyenPayments(endpoint: endpoint, baseURL: request.baseURL).pay(body, idempotencyKey: key) }
        }
        router.post(":version/payments/details") { request, context in
            try await endpoint.post(request, context) { body, _ throws in try await details(body) }
        }
    }

    /// Cash App Pay with the PayKit ids this sandbox's Customer Request API accepts, and the
    /// shopper's active stored methods.
    private func paymentMethods(_ data: Data) async throws -> AdyenEndpoint.Answer {
        let body = try endpoint.reader.decode(AdyenIncoming.PaymentMethods.self, from: data)
        let merchant = try AdyenEndpoint.merchant(body.merchantAccount)
        if let amount = body.amount { try AdyenPaymentValidation.checkAmount(amount) }
        try await endpoint.storedMethods.evictDue(now: endpoint.settings.now(), limits: endpoint.settings.limits)
        var stored: [AdyenStoredPaymentMethod]?
        if let shopper = body.shopperReference {
            stored = try await endpoint.storedMethods.active(shopperReference: shopper, merchantAccount: merchant).map(\.listed)
        }
        let cashApp = AdyenPaymentMethod(
            type: AdyenCashAppDetails.type, name: AdyenCashAppConfiguration.name,
            configuration: .init(clientId: AdyenCashAppConfiguration.clientID, scopeId: AdyenCashAppConfiguration.scopeID))
        return AdyenEndpoint.Answer(AdyenPaymentMethodsResponse(paymentMethods: [cashApp], storedPaymentMethods: stored ?? []))
    }

    /// A payment's current result, found by `details.pspReference`, `details.redirectResult`
    /// or `paymentData` (the sandbox's pspReference in each case); a `redirectResult` the action's
    /// page of a `RedirectShopper` payment handed back completes that payment first.
    private func details(_ data: Data) async throws -> AdyenEndpoint.Answer {
        let body = try endpoint.reader.decode(AdyenIncoming.Details.self, from: data)
        guard let details = body.details else { throw AdyenRejection.invalid("14_0", "Required field 'details' is not provided.") }
        // A redirect's result completes its payment (magic 70.06); any other is read as a pspReference.
        if let redirectResult = details["redirectResult"], let completed = try await AdyenPayments(endpoint: endpoint).complete(redirectResult: redirectResult) {
            return AdyenEndpoint.Answer(completed.response)
        }
        let reference = details["pspReference"] ?? details["redirectResult"] ?? body.paymentData ?? ""
        try await endpoint.payments.evictDue(now: endpoint.settings.now(), limits: endpoint.settings.limits)
        guard !reference.isEmpty, let payment = try await endpoint.payments.payment(reference) else {
            throw AdyenRejection.invalid(
                "14_0", "No payment found for these details: send details.pspReference (or redirectResult, or paymentData) of a payment of this sandbox.")
        }
        return AdyenEndpoint.Answer(payment.response)
    }
}
