import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// Cash App Pay through Adyen's component: `/paymentMethods` gives the PayKit client and
/// scope ids, the Cash App customer request runs the 13 states as for Cash App Pay, and on
/// `approved` the grants go to `/payments`, whose `resultCode` decides. A stored method pays
/// without a customer step.
public actor AdyenAdapter: PaymentProviderAdapter {
    public static let methodsStep = "methods"
    public static let authorisingStep = "authorising"
    public static let awaitingWebhookStep = "awaitingWebhook"
    public static let capturingStep = "capturing"

    public let provider: String
    public let adyen: AdyenClient
    /// The session's settings; a payment's own options (the screen's) override them.
    public let settings: AdyenPaymentSettings
    /// Cash App's host for the customer request (the client id comes from Adyen).
    private let cashAppBaseURL: String
    private let webhooks: (any AdyenWebhookSource)?
    private let refreshRetry: RetryPolicy
    /// Each attempt's Cash App request and scope, made with the ids `/paymentMethods` gave, by attempt number.
    private var cashApp: [Int: (requests: CashAppRequests, scopeID: String)] = [:]
    /// The attempt number of each customer request, for polling.
    private var requestAttempts: [String: Int] = [:]
    private var references: [Int: String] = [:]
    /// The cashtag of the stored method an attempt pays with.
    private var storedCashtags: [Int: String] = [:]
    /// Each attempt's settings: the session's, with its order's options applied.
    private var attemptSettings: [Int: AdyenPaymentSettings] = [:]

    public init(
        provider: String, adyen: AdyenClient, cashAppBaseURL: String, settings: AdyenPaymentSettings,
        webhooks: (any AdyenWebhookSource)?, refreshRetry: RetryPolicy = .standard.withMaxAttempts(3)
    ) {
        self.provider = provider
        self.adyen = adyen
        self.cashAppBaseURL = cashAppBaseURL
        self.settings = settings
        self.webhooks = webhooks
        self.refreshRetry = refreshRetry
    }

    public func close() async {
        await webhooks?.close()
    }

    /// methods: Cash App Pay's configuration, or the stored method to pay with. A stored
    /// method needs no customer step: the draft comes back approved, and the coordinator
    /// goes straight to settlement.
    public func prepare(_ order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter) async throws(ProviderFailure) -> PaymentAttempt {
        let reference = order.reference ?? ids.reference
        references[ids.number] = reference
        let settings = settings.applying(order.providerOptions)
        attemptSettings[ids.number] = settings
        await step(Self.methodsStep)
        if let webhooks { try await webhooks.prepare() }
        let methods: AdyenPaymentMethodsResponse
        do {
            methods = try await adyen.paymentMethods(amount: Self.amount(order.amount), idempotencyKey: "\(ids.idempotencyKey)-methods")
        } catch {
            throw ProviderFailure(error)
        }
        if let storedID = settings.storedPaymentMethodID {
            guard let stored = methods.storedPaymentMethods?.first(where: { $0.id == storedID }) else {
                let known = methods.storedPaymentMethods?.map(\.id) ?? []
                throw ProviderFailure(
                    kind: .integration, category: "ADYEN_VALIDATION", code: "STORED_METHOD_UNKNOWN",
                    detail: "shopper \(adyen.configuration.shopperReference) has no stored Cash App Pay \(storedID)"
                        + (known.isEmpty ? " (none stored)" : "; stored: \(known.joined(separator: ", "))"))
            }
            storedCashtags[ids.number] = stored.cashtag
            return PaymentAttempt(
                provider: provider, id: storedID, status: .approved, amount: order.amount, reference: reference, payer: stored.cashtag,
                grants: [storedID])
        }
        guard let configuration = methods.cashApp?.configuration, let clientID = configuration.clientId, let scopeID = configuration.scopeId else {
            throw ProviderFailure(
                kind: .integration, category: "ADYEN_CONFIGURATION", code: "NO_CASHAPP",
                detail: "Adyen's /paymentMethods offers no Cash App Pay with a clientId and scopeId for merchant account \(adyen.configuration.merchantAccount)")
        }
        let customerRequests = CustomerRequestClient(
            configuration: CashAppConfiguration(baseURL: cashAppBaseURL, clientID: clientID, brandID: scopeID), http: adyen.http)
        cashApp[ids.number] = (CashAppRequests(provider: provider, client: customerRequests, refreshRetry: refreshRetry), scopeID)
        return PaymentAttempt(provider: provider, amount: order.amount, reference: reference)
    }

    private func settings(_ ids: AttemptIdentifiers) -> AdyenPaymentSettings { attemptSettings[ids.number] ?? settings }

    /// The component's actions: ONE_TIME when the amount is above zero, ON_FILE when storing.
    private func actions(scopeID: String, amount: Money, ids: AttemptIdentifiers) -> [PaymentAction] {
        var actions: [PaymentAction] = []
        if amount.minorUnits > 0 { actions += CashAppAdapter.actions(scopeID: scopeID, amount: amount) }
        if settings(ids).store {
            actions.append(PaymentAction(type: .ON_FILE_PAYMENT, scopeID: scopeID, accountReferenceID: adyen.configuration.shopperReference))
        }
        return actions
    }

    public func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        guard let cashApp = cashApp[ids.number] else { throw Self.notPrepared }
        let params = CashAppRequests.createParams(
            draft, order: order, actions: actions(scopeID: cashApp.scopeID, amount: draft.amount ?? order.amount, ids: ids), channel: .IN_APP,
            redirectURL: CashAppAdapter.redirectURL)
        return remember(try await cashApp.requests.create(params, idempotencyKey: ids.idempotencyKey), for: ids)
    }

    public func update(
        _ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers
    ) async throws(ProviderFailure) -> PaymentAttempt {
        guard let cashApp = cashApp[ids.number] else { throw Self.notPrepared }
        let updated = try await cashApp.requests.update(
            attempt, actions: actions(scopeID: cashApp.scopeID, amount: draft.amount ?? order.amount, ids: ids), reference: references[ids.number],
            metadata: nil)
        return remember(updated, for: ids)
    }

    /// Notes which attempt the request belongs to, for polling.
    private func remember(_ request: PaymentAttempt, for ids: AttemptIdentifiers) -> PaymentAttempt {
        if let id = request.id { requestAttempts[id] = ids.number }
        return request
    }

    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        guard let number = attempt.id.flatMap({ requestAttempts[$0] }), let cashApp = cashApp[number] else { throw Self.notPrepared }
        return try await cashApp.requests.retrieve(attempt, refreshing: refreshing)
    }

    /// authorising → (awaitingWebhook) → (capturing) → completed; Refused and Cancelled are
    /// declines, Error is an error.
    public func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome {
        let settings = settings(ids)
        guard let amount = attempt.amount, let request = paymentRequest(for: attempt, amount: amount, ids: ids) else {
            return .failed(SettlementFailure(declined: false, reason: "the approved request has no grant to pay with"))
        }
        await step(Self.authorisingStep)
        let payment: AdyenPaymentResponse
        do { payment = try await adyen.payments(request, idempotencyKey: "\(ids.idempotencyKey)-payment") } catch {
            return .failed(SettlementFailure(declined: false, reason: "POST /payments failed: \(error)"))
        }
        let psp = payment.pspReference ?? "?"
        var details = Self.details(payment)
        switch payment.result {
        case .authorised:
            break
        case .received, .pending:
            guard let webhooks else {
                return .failed(SettlementFailure(
                    declined: false, reason: "Adyen answered \(payment.resultCode ?? ""): order received; its result arrives by webhook, and none is received here (use the sandbox, or `checkout listen`)",
                    details: details))
            }
            await step(Self.awaitingWebhookStep)
            guard let notification = await webhooks.authorisation(for: psp, timeout: settings.webhookWait) else {
                return .failed(SettlementFailure(
                    declined: false, reason: "order received (\(psp)); no AUTHORISATION webhook within \(settings.webhookWait)", details: details))
            }
            details["webhook"] = "AUTHORISATION success=\(notification.success)"
            guard notification.succeeded else {
                return .failed(SettlementFailure(
                    declined: true, reason: "AUTHORISATION webhook: not authorised (\(notification.reason ?? "no reason given"))", details: details))
            }
        case .refused:
            return .failed(SettlementFailure(declined: true, reason: "Refused\(Self.because(payment)): choose another method", details: details))
        case .cancelled:
            return .failed(SettlementFailure(declined: true, reason: "Cancelled: pay with Cash App Pay again or choose another method", details: details))
        case .error:
            return .failed(SettlementFailure(declined: false, reason: "Error\(Self.because(payment)): choose another method", details: details))
        case .redirectShopper, nil:
            return .failed(SettlementFailure(
                declined: false, reason: "Adyen answered resultCode \(payment.resultCode ?? "(none)"), which a Cash App Pay payment does not expect",
                details: details))
        }
        if settings.capture == .manual {
            await step(Self.capturingStep)
            do {
                let capture = try await adyen.capture(
                    pspReference: psp, amount: request.amount, reference: request.reference, idempotencyKey: "\(ids.idempotencyKey)-capture")
                details["capture_psp_reference"] = capture.pspReference
            } catch {
                return .failed(SettlementFailure(
                    declined: false, reason: "authorised (\(psp)), but the capture failed: \(error); capture it before charging again",
                    details: details))
            }
        }
        let payer = payment.additionalData?["cashapp.cashtag"] ?? storedCashtags[ids.number] ?? attempt.payer
        return .completed(SettlementReceipt(paymentID: psp, payer: payer, details: details))
    }

    /// `/payments` for the approved attempt: its grants, or the stored method.
    private func paymentRequest(for attempt: PaymentAttempt, amount: Money, ids: AttemptIdentifiers) -> AdyenPaymentRequest? {
        let configuration = adyen.configuration
        let settings = settings(ids)
        let reference = references[ids.number] ?? attempt.reference ?? ids.reference
        if let storedID = settings.storedPaymentMethodID {
            return AdyenPaymentRequest(
                amount: Self.amount(amount), merchantAccount: configuration.merchantAccount,
                paymentMethod: AdyenCashAppDetails(cashtag: storedCashtags[ids.number], storedPaymentMethodId: storedID), reference: reference,
                returnUrl: configuration.returnURL, shopperReference: configuration.shopperReference,
                recurringProcessingModel: "CardOnFile", shopperInteraction: "ContAuth")
        }
        // Grants come one-time first (CashAppAttempt); the on-file grant is the last when storing.
        let oneTime = amount.minorUnits > 0 ? attempt.grants.first : nil
        let onFile = settings.store ? attempt.grants.last.flatMap { $0 == oneTime ? nil : $0 } : nil
        guard oneTime != nil || onFile != nil else { return nil }
        let details = AdyenCashAppDetails(
            grantId: oneTime, onFileGrantId: onFile, customerId: onFile == nil ? nil : attempt.customerID,
            cashtag: onFile == nil ? nil : attempt.payer, requestId: attempt.id)
        return AdyenPaymentRequest(
            amount: Self.amount(amount), merchantAccount: configuration.merchantAccount, paymentMethod: details, reference: reference,
            returnUrl: configuration.returnURL, shopperReference: configuration.shopperReference,
            storePaymentMethod: settings.store ? true : nil, recurringProcessingModel: settings.store ? "CardOnFile" : nil)
    }

    /// ` (Not enough balance)`: the refusal reason, unless it only repeats the result code.
    private static func because(_ payment: AdyenPaymentResponse) -> String {
        guard let reason = payment.refusalReason, !reason.isEmpty, reason != payment.resultCode else { return "" }
        return " (\(reason))"
    }

    /// What the receipt and `--json` show of Adyen's answer.
    private static func details(_ payment: AdyenPaymentResponse) -> [String: String] {
        var details: [String: String] = [:]
        details["psp_reference"] = payment.pspReference
        details["result_code"] = payment.resultCode
        details["refusal_reason"] = payment.refusalReason
        details["stored_payment_method_id"] = payment.storedPaymentMethodID
        return details
    }

    static func amount(_ money: Money) -> AdyenAmount {
        AdyenAmount(currency: money.currency.code, value: money.minorUnits)
    }

    private static let notPrepared = ProviderFailure(
        kind: .unexpected, category: "ADYEN", code: "NOT_PREPARED", detail: "the attempt has no Cash App Pay configuration from Adyen")
}

extension AdyenAdapter: SavedPaymentMethodsAdapter {
    /// The shopper's stored Cash App Pay, as `/paymentMethods` lists it to a shopper (as Drop-in
    /// does): its StoredPaymentMethod carries the $cashtag, `GET /storedPaymentMethods`'s does not.
    public func savedMethods() async throws(ProviderFailure) -> [SavedPaymentMethod] {
        let listed: AdyenPaymentMethodsResponse
        do {
            listed = try await adyen.paymentMethods(amount: nil, idempotencyKey: "saved-methods-\(UUID().uuidString)")
        } catch { throw ProviderFailure(error) }
        return (listed.storedPaymentMethods ?? []).filter { $0.type == AdyenCashAppDetails.type }.map { method in
            SavedPaymentMethod(
                provider: provider, id: method.id, label: method.cashtag ?? "\(method.name ?? "Cash App Pay") ····\(method.id.suffix(4))",
                options: [AdyenPaymentSettings.storedMethodFlag: method.id])
        }
    }

    public func deleteSavedMethod(id: String) async throws(ProviderFailure) {
        do { try await adyen.deleteStoredPaymentMethod(id: id) } catch { throw ProviderFailure(error) }
    }
}
