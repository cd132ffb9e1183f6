import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// Cash App Pay through Adyen's component, in either server-side flow.
///
/// Sessions (the default): `POST /sessions` with the API key, then the component's calls on the
/// client-key host — setup (Cash App Pay's clientId and scopeId, the shopper's stored methods),
/// the Cash App customer request through the 13 states, payments with the grants, paymentDetails
/// when an `action` comes back — each sending the latest `sessionData`, and `GET
/// /sessions/{id}?sessionResult=…` reads the outcome (`Received` waits for the verified
/// AUTHORISATION webhook). Advanced: `/paymentMethods`, the customer request, `/payments` and
/// `/payments/details`. A stored method pays without a customer step in both.
public actor AdyenAdapter: PaymentProviderAdapter {
    public static let methodsStep = "methods"
    public static let authorisingStep = "authorising"
    public static let awaitingWebhookStep = "awaitingWebhook"
    public static let capturingStep = "capturing"
    /// Sessions: `POST /sessions` and the component's setup.
    public static let sessionStep = "session"
    /// Sessions: the component's payments call with the grants.
    public static let sessionPaymentStep = "sessionPayment"
    /// Either flow: an `action` came back; the shopper's return goes to (the session's) payment details.
    public static let detailsStep = "details"
    /// Sessions: `GET /sessions/{id}?sessionResult=…`.
    public static let sessionResultStep = "sessionResult"

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
    /// Each attempt's Adyen session (sessions flow): its id, amount and the latest `sessionData`.
    private var sessions: [Int: AdyenSessionState] = [:]

    /// An Adyen session as the component holds it: every answer's `sessionData` replaces the last.
    struct AdyenSessionState: Sendable {
        var id: String
        var data: String
        var amount: AdyenAmount
    }

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
        await step(settings.flow == .sessions ? Self.sessionStep : Self.methodsStep)
        if let webhooks { try await webhooks.prepare() }
        let methods: AdyenPaymentMethodsResponse
        switch settings.flow {
        case .advanced:
            do {
                // Per amount, as the session's: a cart change prepares again with another body.
                methods = try await adyen.paymentMethods(
                    amount: Self.amount(order.amount), idempotencyKey: "\(ids.idempotencyKey)-methods-\(order.amount.minorUnits)")
            } catch {
                throw ProviderFailure(error)
            }
        case .sessions:
            // The key names the amount: a cart change prepares again, and a new total is a new session.
            methods = try await openSession(
                amount: order.amount, reference: reference, settings: settings, ids: ids, key: "session-\(order.amount.minorUnits)")
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
                detail: "Adyen's \(settings.flow == .sessions ? "session setup" : "/paymentMethods") offers no Cash App Pay with a clientId and scopeId for merchant account \(adyen.configuration.merchantAccount)")
        }
        let customerRequests = CustomerRequestClient(
            configuration: CashAppConfiguration(baseURL: cashAppBaseURL, clientID: clientID, brandID: scopeID), http: adyen.http)
        cashApp[ids.number] = (CashAppRequests(provider: provider, client: customerRequests, refreshRetry: refreshRetry), scopeID)
        return PaymentAttempt(provider: provider, amount: order.amount, reference: reference)
    }

    private func settings(_ ids: AttemptIdentifiers) -> AdyenPaymentSettings { attemptSettings[ids.number] ?? settings }

    /// `POST /sessions` with the API key, then the component's setup with the client key: the
    /// session's payment methods. `key` tells this session's calls apart within the attempt (a
    /// new amount needs a new session), the same on their retries.
    private func openSession(
        amount: Money, reference: String, settings: AdyenPaymentSettings, ids: AttemptIdentifiers, key: String
    ) async throws(ProviderFailure) -> AdyenPaymentMethodsResponse {
        let configuration = adyen.configuration
        let storing = settings.storeMode != .disabled || settings.storedPaymentMethodID != nil
        // A session offers the shopper's stored methods only when it may store (Adyen's rule):
        // paying with one asks for consent, which stores nothing new without it.
        let mode = settings.storedPaymentMethodID != nil && settings.storeMode == .disabled ? .askForConsent : settings.storeMode
        let request = AdyenSessionRequest(
            amount: Self.amount(amount), merchantAccount: configuration.merchantAccount, reference: reference, returnUrl: configuration.returnURL,
            shopperReference: configuration.shopperReference, storePaymentMethodMode: mode,
            recurringProcessingModel: storing ? "CardOnFile" : nil, shopperInteraction: settings.storedPaymentMethodID == nil ? nil : "ContAuth")
        let session: AdyenSessionResponse
        do { session = try await adyen.createSession(request, idempotencyKey: "\(ids.idempotencyKey)-\(key)") } catch { throw ProviderFailure(error) }
        guard let data = session.sessionData else {
            throw ProviderFailure(
                kind: .unexpected, category: "ADYEN", code: "NO_SESSION_DATA", detail: "POST /sessions answered session \(session.id) without sessionData")
        }
        let setup: AdyenSessionSetupResponse
        do {
            setup = try await adyen.component.setup(sessionID: session.id, sessionData: data, idempotencyKey: "\(ids.idempotencyKey)-\(key)-setup")
        } catch { throw ProviderFailure(error) }
        sessions[ids.number] = AdyenSessionState(id: session.id, data: setup.sessionData, amount: session.amount)
        return setup.paymentMethods
    }

    /// The component's actions: ONE_TIME when the amount is above zero, ON_FILE when storing.
    private func actions(scopeID: String, amount: Money, ids: AttemptIdentifiers) -> [PaymentAction] {
        var actions: [PaymentAction] = []
        if amount.minorUnits > 0 { actions += CashAppAdapter.actions(scopeID: scopeID, amount: amount) }
        if settings(ids).stores {
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
        // A session is for one amount: a new cart total needs a new session (set up again).
        let amount = draft.amount ?? order.amount
        if let session = sessions[ids.number], session.amount != Self.amount(amount) {
            let reference = references[ids.number] ?? ids.reference
            _ = try await openSession(amount: amount, reference: reference, settings: settings(ids), ids: ids, key: "session-\(amount.minorUnits)")
        }
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

    /// Advanced: authorising → (details) → (awaitingWebhook) → (capturing) → completed.
    /// Sessions: sessionPayment → (details) → sessionResult → (awaitingWebhook) → (capturing) →
    /// completed. Refused and Cancelled are declines, Error is an error (the seed's table).
    public func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome {
        let settings = settings(ids)
        guard let amount = attempt.amount, let method = paymentMethod(for: attempt, amount: amount, ids: ids) else {
            return .failed(SettlementFailure(declined: false, reason: "the approved request has no grant to pay with", details: flowDetails(ids)))
        }
        let decision: Decision
        switch settings.flow {
        case .advanced: decision = await payAdvanced(method, amount: amount, attempt: attempt, ids: ids, step: step)
        case .sessions: decision = await paySession(method, ids: ids, step: step)
        }
        return await finish(decision, amount: amount, attempt: attempt, ids: ids, step: step)
    }

    /// What a payment came to, before the webhook and the capture.
    enum Decision: Sendable {
        case authorised(psp: String, details: [String: String], payer: String?)
        case received(psp: String?, details: [String: String], payer: String?)
        case failed(SettlementFailure)
    }

    /// `/payments`, and `/payments/details` when it answers with an action.
    private func payAdvanced(
        _ method: AdyenCashAppDetails, amount: Money, attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async -> Decision {
        let configuration = adyen.configuration
        let settings = settings(ids)
        let stored = settings.storedPaymentMethodID != nil
        let request = AdyenPaymentRequest(
            amount: Self.amount(amount), merchantAccount: configuration.merchantAccount, paymentMethod: method,
            reference: references[ids.number] ?? attempt.reference ?? ids.reference, returnUrl: configuration.returnURL,
            shopperReference: configuration.shopperReference, storePaymentMethod: settings.stores ? true : nil,
            recurringProcessingModel: stored || settings.stores ? "CardOnFile" : nil, shopperInteraction: stored ? "ContAuth" : nil)
        await step(Self.authorisingStep)
        var payment: AdyenPaymentResponse
        do { payment = try await adyen.payments(request, idempotencyKey: "\(ids.idempotencyKey)-payment") } catch {
            return .failed(SettlementFailure(declined: false, reason: "POST /payments failed: \(error)", details: flowDetails(ids)))
        }
        if let action = payment.action {
            await step(Self.detailsStep)
            do {
                let details = try await adyen.shopperReturn(from: action)
                payment = try await adyen.paymentDetails(
                    AdyenPaymentDetailsRequest(details: details, paymentData: action.paymentData), idempotencyKey: "\(ids.idempotencyKey)-details")
            } catch {
                return .failed(SettlementFailure(
                    declined: false, reason: "Adyen asked for a \(action.type) action, and completing it failed: \(error)",
                    details: flowDetails(ids).merging(Self.details(payment)) { $1 }))
            }
        }
        let details = flowDetails(ids).merging(Self.details(payment)) { $1 }
        return Self.decide(
            resultCode: payment.resultCode, refusalReason: payment.refusalReason, psp: payment.pspReference, details: details,
            payer: payment.additionalData?["cashapp.cashtag"])
    }

    /// The component's payments call on the session (the latest `sessionData`), its
    /// paymentDetails when an action comes back, then `GET /sessions/{id}?sessionResult=…`.
    private func paySession(_ method: AdyenCashAppDetails, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> Decision {
        guard var session = sessions[ids.number] else {
            return .failed(SettlementFailure(declined: false, reason: "the attempt has no Adyen session", details: flowDetails(ids)))
        }
        let settings = settings(ids)
        await step(Self.sessionPaymentStep)
        let component = adyen.component
        // The toggle's answer goes with the payment only when the session asked for consent.
        let consent: Bool? = settings.storeMode == .askForConsent && settings.storedPaymentMethodID == nil ? settings.store : nil
        var payment: AdyenSessionPaymentResponse
        do {
            payment = try await component.payments(
                sessionID: session.id, AdyenSessionPaymentRequest(sessionData: session.data, paymentMethod: method, storePaymentMethod: consent),
                idempotencyKey: "\(ids.idempotencyKey)-payment")
        } catch {
            return .failed(SettlementFailure(declined: false, reason: "the session's payments call failed: \(error)", details: flowDetails(ids)))
        }
        session.data = payment.sessionData
        sessions[ids.number] = session
        if let action = payment.action {
            await step(Self.detailsStep)
            do {
                let details = try await adyen.shopperReturn(from: action)
                payment = try await component.paymentDetails(
                    sessionID: session.id,
                    AdyenSessionPaymentDetailsRequest(sessionData: session.data, details: details, paymentData: action.paymentData),
                    idempotencyKey: "\(ids.idempotencyKey)-details")
            } catch {
                return .failed(SettlementFailure(
                    declined: false, reason: "Adyen asked for a \(action.type) action, and completing it failed: \(error)",
                    details: flowDetails(ids).merging(["result_code": payment.resultCode]) { $1 }))
            }
            session.data = payment.sessionData
            sessions[ids.number] = session
        }
        var details = flowDetails(ids)
        details["result_code"] = payment.resultCode
        details["refusal_reason"] = payment.refusalReason
        guard let sessionResult = payment.sessionResult else {
            // Nothing to ask the server with: the resultCode alone decides, as in the advanced flow.
            return Self.decide(resultCode: payment.resultCode, refusalReason: payment.refusalReason, psp: nil, details: details, payer: nil)
        }
        await step(Self.sessionResultStep)
        let result: AdyenSessionResultResponse
        do { result = try await adyen.sessionResult(sessionID: session.id, sessionResult: sessionResult) } catch {
            return .failed(SettlementFailure(
                declined: false, reason: "GET /sessions/\(session.id) failed: \(error); the payment's result code was \(payment.resultCode)",
                details: details))
        }
        details["session_status"] = result.status
        let psp = result.payments?.first(where: { $0.pspReference != nil })?.pspReference
        details["psp_reference"] = psp
        details["stored_payment_method_id"] = result.additionalData?["tokenization.storedPaymentMethodId"]
        return Self.decide(session: result.sessionStatus, resultCode: payment.resultCode, refusalReason: payment.refusalReason, psp: psp, details: details)
    }

    /// The seed's table of resultCodes: Authorised pays, Received/Pending wait for the
    /// AUTHORISATION webhook, Refused and Cancelled are declines, Error an error.
    static func decide(resultCode: String?, refusalReason: String?, psp: String?, details: [String: String], payer: String?) -> Decision {
        let because = Self.because(resultCode: resultCode, refusalReason: refusalReason)
        switch resultCode.flatMap(AdyenResultCode.init(rawValue:)) {
        case .authorised:
            guard let psp else { return .failed(SettlementFailure(declined: false, reason: "Authorised without a pspReference", details: details)) }
            return .authorised(psp: psp, details: details, payer: payer)
        case .received, .pending:
            return .received(psp: psp, details: details, payer: payer)
        case .refused:
            return .failed(SettlementFailure(declined: true, reason: "Refused\(because): choose another method", details: details))
        case .cancelled:
            return .failed(SettlementFailure(declined: true, reason: "Cancelled: pay with Cash App Pay again or choose another method", details: details))
        case .error:
            return .failed(SettlementFailure(declined: false, reason: "Error\(because): choose another method", details: details))
        case .redirectShopper, nil:
            return .failed(SettlementFailure(
                declined: false, reason: "Adyen answered resultCode \(resultCode ?? "(none)"), which a Cash App Pay payment does not expect",
                details: details))
        }
    }

    /// The session's result decides; the payment's resultCode words it (and tells an Error from a refusal).
    static func decide(
        session status: AdyenSessionStatus?, resultCode: String, refusalReason: String?, psp: String?, details: [String: String]
    ) -> Decision {
        switch status {
        case .completed:
            guard let psp else {
                return .failed(SettlementFailure(declined: false, reason: "the session completed without a payment's pspReference", details: details))
            }
            return .authorised(psp: psp, details: details, payer: nil)
        case .paymentPending:
            return .received(psp: psp, details: details, payer: nil)
        case .canceled:
            return decide(resultCode: AdyenResultCode.cancelled.rawValue, refusalReason: refusalReason, psp: psp, details: details, payer: nil)
        case .refused:
            // A refused session after an Error result is the error's; otherwise a refusal.
            let code = resultCode == AdyenResultCode.error.rawValue ? resultCode : AdyenResultCode.refused.rawValue
            return decide(resultCode: code, refusalReason: refusalReason, psp: psp, details: details, payer: nil)
        case .expired:
            return .failed(SettlementFailure(declined: false, reason: "the Adyen session expired before it was paid; start again", details: details))
        case .active, nil:
            // Still payable: the payment's own result says what happened to this attempt.
            if let code = AdyenResultCode(rawValue: resultCode), [.refused, .cancelled, .error].contains(code) {
                return decide(resultCode: resultCode, refusalReason: refusalReason, psp: psp, details: details, payer: nil)
            }
            return .failed(SettlementFailure(
                declined: false, reason: "the session is \(status?.rawValue ?? "of unknown status") after resultCode \(resultCode)", details: details))
        }
    }

    /// Received: the verified AUTHORISATION webhook decides; then the manual capture.
    private func finish(
        _ decision: Decision, amount: Money, attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async -> SettlementOutcome {
        let settings = settings(ids)
        let psp: String
        var details: [String: String]
        let payer: String?
        switch decision {
        case .failed(let failure):
            return .failed(failure)
        case .authorised(let reference, let facts, let cashtag):
            (psp, details, payer) = (reference, facts, cashtag)
        case .received(let reference, let facts, let cashtag):
            details = facts
            let code = facts["result_code"] ?? "Received"
            guard let webhooks else {
                return .failed(SettlementFailure(
                    declined: false,
                    reason: "Adyen answered \(code): order received; its result arrives by webhook, and none is received here (use the sandbox, or `checkout listen`)",
                    details: details))
            }
            guard let reference else {
                return .failed(SettlementFailure(
                    declined: false, reason: "order received, but Adyen named no pspReference to match its webhook with", details: details))
            }
            await step(Self.awaitingWebhookStep)
            guard let notification = await webhooks.authorisation(for: reference, timeout: settings.webhookWait) else {
                return .failed(SettlementFailure(
                    declined: false, reason: "order received (\(reference)); no AUTHORISATION webhook within \(settings.webhookWait)", details: details))
            }
            details["webhook"] = "AUTHORISATION success=\(notification.success)"
            guard notification.succeeded else {
                return .failed(SettlementFailure(
                    declined: true, reason: "AUTHORISATION webhook: not authorised (\(notification.reason ?? "no reason given"))", details: details))
            }
            (psp, payer) = (reference, cashtag)
        }
        if settings.capture == .manual {
            await step(Self.capturingStep)
            do {
                let capture = try await adyen.capture(
                    pspReference: psp, amount: Self.amount(amount), reference: references[ids.number] ?? attempt.reference,
                    idempotencyKey: "\(ids.idempotencyKey)-capture")
                details["capture_psp_reference"] = capture.pspReference
            } catch {
                return .failed(SettlementFailure(
                    declined: false, reason: "authorised (\(psp)), but the capture failed: \(error); capture it before charging again",
                    details: details))
            }
        }
        return .completed(SettlementReceipt(paymentID: psp, payer: payer ?? storedCashtags[ids.number] ?? attempt.payer, details: details))
    }

    /// Which flow paid, and the session's id: the receipt and `--json` say.
    private func flowDetails(_ ids: AttemptIdentifiers) -> [String: String] {
        var details = ["flow": settings(ids).flow.rawValue]
        details["session_id"] = sessions[ids.number]?.id
        return details
    }

    /// Cash App Pay's details for the approved attempt: its grants, or the stored method.
    private func paymentMethod(for attempt: PaymentAttempt, amount: Money, ids: AttemptIdentifiers) -> AdyenCashAppDetails? {
        let settings = settings(ids)
        if let storedID = settings.storedPaymentMethodID {
            return AdyenCashAppDetails(cashtag: storedCashtags[ids.number], storedPaymentMethodId: storedID)
        }
        // Grants come one-time first (CashAppAttempt); the on-file grant is the last when storing.
        let oneTime = amount.minorUnits > 0 ? attempt.grants.first : nil
        let onFile = settings.stores ? attempt.grants.last.flatMap { $0 == oneTime ? nil : $0 } : nil
        guard oneTime != nil || onFile != nil else { return nil }
        return AdyenCashAppDetails(
            grantId: oneTime, onFileGrantId: onFile, customerId: onFile == nil ? nil : attempt.customerID,
            cashtag: onFile == nil ? nil : attempt.payer, requestId: attempt.id)
    }

    /// ` (Not enough balance)`: the refusal reason, unless it only repeats the result code.
    private static func because(resultCode: String?, refusalReason: String?) -> String {
        guard let reason = refusalReason, !reason.isEmpty, reason != resultCode else { return "" }
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
