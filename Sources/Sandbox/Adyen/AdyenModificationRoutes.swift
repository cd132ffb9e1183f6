import Foundation
import Hummingbird
import ProviderWire

/// `POST /vNN/payments/{pspReference}/captures|cancels|refunds|reversals|amountUpdates`: 201
/// "received" at once, the outcome in a CAPTURE / CANCELLATION / REFUND / CANCEL_OR_REFUND /
/// AUTHORISATION_ADJUSTMENT webhook whose originalReference is the payment. A capture over what
/// is left to capture is refused at once (422), as Adyen's accounting rules do. A reversal
/// refunds what was captured and not yet refunded, or else cancels. Amount updates need a
/// pre-authorised payment, which this sandbox never makes: they are received, and their webhook
/// reports the adjustment failed, as Adyen's does for a final authorisation.
struct AdyenModificationRoutes {
    let endpoint: AdyenEndpoint

    private enum Kind: String, CaseIterable {
        case captures, cancels, refunds, reversals, amountUpdates
        var eventCode: String {
            switch self {
            case .captures: "CAPTURE"
            case .cancels: "CANCELLATION"
            case .refunds: "REFUND"
            case .reversals: "CANCEL_OR_REFUND"
            case .amountUpdates: "AUTHORISATION_ADJUSTMENT"
            }
        }
        /// Whether the request names an amount (Adyen requires it for these).
        var takesAmount: Bool { self != .cancels && self != .reversals }
    }

    /// What a modification did, for its webhook.
    private struct Outcome {
        var success: Bool
        var reason: String?
        /// A reversal's `modification.action`: "cancel" or "refund".
        var action: String?

        static let succeeded = Outcome(success: true)
        static func failed(_ reason: String) -> Outcome { Outcome(success: false, reason: reason) }
    }

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        for kind in Kind.allCases {
            router.post(":version/payments/:pspReference/\(kind.rawValue)") { request, context in
                let psp = context.parameters.get("pspReference") ?? ""
                return try await endpoint.post(request, context) { body, _ throws in try await modify(kind, psp: psp, body) }
            }
        }
    }

    private func modify(_ kind: Kind, psp: String, _ data: Data) async throws -> AdyenEndpoint.Answer {
        let body = try endpoint.reader.decode(AdyenIncoming.Modification.self, from: data)
        let merchant = try AdyenEndpoint.merchant(body.merchantAccount)
        var amount: AdyenAmount?
        if kind.takesAmount {
            guard let given = body.amount else { throw AdyenRejection.invalid("100", "Required field 'amount' is not provided.") }
            try AdyenPaymentValidation.checkAmount(given)
            guard given.value > 0 else { throw AdyenRejection.invalid("137", "Invalid amount specified: a \(kind.eventCode) needs a value above 0.") }
            amount = given
        }
        if let reference = body.reference, reference.isEmpty || reference.count > AdyenPaymentValidation.maxReferenceLength {
            throw AdyenRejection.invalid("130", "Field 'reference' must be 1 to \(AdyenPaymentValidation.maxReferenceLength) characters.")
        }
        try await endpoint.payments.evictDue(now: endpoint.settings.now(), limits: endpoint.settings.limits)
        guard let payment = try await endpoint.payments.payment(psp) else {
            throw AdyenRejection.invalid("167", "Original pspReference required for this operation: \(psp.prefix(32)) is not a payment of this sandbox.")
        }
        guard payment.merchantAccount == merchant else {
            throw AdyenRejection.invalid("167", "Payment \(psp) belongs to another merchant account than \(merchant).")
        }
        if let amount, amount.currency != payment.amount.currency {
            throw AdyenRejection.invalid("137", "Invalid amount specified: the payment is in \(payment.amount.currency), not \(amount.currency).")
        }
        let modification = AdyenIDs.pspReference()
        let outcome = try await apply(kind, amount: amount, modification: modification, to: payment)
        try await endpoint.notifier.standard(
            kind.eventCode, pspReference: modification, originalReference: psp, merchantAccount: merchant,
            merchantReference: body.reference ?? payment.reference, amount: amount ?? payment.amount, success: outcome.success,
            reason: outcome.reason, additionalData: outcome.action.map { ["modification.action": $0] } ?? [:])
        // An amount update's answer always has a reference (Adyen's PaymentAmountUpdateResponse
        // requires one): the request's, or the payment's.
        let reference = kind == .amountUpdates ? body.reference ?? payment.reference : body.reference
        return AdyenEndpoint.Answer(
            AdyenModificationResponse(
                merchantAccount: merchant, paymentPspReference: psp, pspReference: modification, reference: reference, status: "received",
                amount: amount),
            status: .created)
    }

    /// Changes the payment under its lock: whether the modification succeeds (for the webhook)
    /// and why not; a capture it can never make is refused outright.
    private func apply(
        _ kind: Kind, amount: AdyenAmount?, modification: String, to payment: AdyenPaymentStore.Payment
    ) async throws -> Outcome {
        let outcome = try await endpoint.payments.update(payment.pspReference) { stored -> Result<Outcome, AdyenRejection> in
            let value = amount?.value ?? 0
            switch kind {
            case .captures:
                guard stored.resultCode == .authorised, !stored.cancelled else {
                    let state = stored.cancelled ? "cancelled" : stored.resultCode.rawValue
                    return .failure(AdyenRejection.invalid("167", "Payment \(stored.pspReference) is \(state): only an Authorised payment can be captured."))
                }
                let left = stored.amount.value - stored.captured
                guard value <= left else {
                    let leftAmount = AdyenAmount(currency: stored.amount.currency, value: left)
                    return .failure(AdyenRejection.invalid(
                        "137", "Invalid amount specified: capturing \(AdyenFunding.describe(amount!)) exceeds the \(AdyenFunding.describe(leftAmount)) left to capture."))
                }
                stored.captured += value
                stored.captures.append(.init(pspReference: modification, paymentPspReference: stored.pspReference, amount: value, currency: stored.amount.currency))
                return .success(.succeeded)
            case .cancels:
                if stored.cancelled { return .success(.failed("Payment already cancelled")) }
                if stored.captured > 0 { return .success(.failed("Payment already captured")) }
                guard stored.resultCode == .authorised else { return .success(.failed("Payment is \(stored.resultCode.rawValue), not Authorised")) }
                stored.cancelled = true
                return .success(.succeeded)
            case .refunds:
                guard value <= stored.captured - stored.refunded else { return .success(.failed("Refund amount exceeds the captured amount not yet refunded")) }
                stored.refunded += value
                return .success(.succeeded)
            case .reversals:
                if stored.cancelled { return .success(Outcome(success: false, reason: "Payment already cancelled", action: "cancel")) }
                let refundable = stored.captured - stored.refunded
                if refundable > 0 {
                    stored.refunded += refundable
                    return .success(Outcome(success: true, action: "refund"))
                }
                if stored.captured > 0 { return .success(Outcome(success: false, reason: "Payment already fully refunded", action: "refund")) }
                guard stored.resultCode == .authorised else {
                    return .success(Outcome(success: false, reason: "Payment is \(stored.resultCode.rawValue), not Authorised", action: "cancel"))
                }
                stored.cancelled = true
                return .success(Outcome(success: true, action: "cancel"))
            case .amountUpdates:
                return .success(.failed("Authorisation adjustment needs a pre-authorised payment; this payment's authorisation is final"))
            }
        }
        switch outcome {
        case .success(let result): return result
        case .failure(let rejection): throw rejection
        case nil: throw AdyenRejection.invalid("167", "Payment \(payment.pspReference) is no longer known to this sandbox.")
        }
    }
}
