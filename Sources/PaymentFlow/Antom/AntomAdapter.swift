import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// Antom's cashier payment with bank methods: createPaymentSession (its paymentSessionData
/// loads the bank component, which lists the banks of the display mode), the customer pays at
/// the bank, and inquiryPayment decides, checked against the signed `notifyPayment`. A session
/// about to expire unpaid is re-created (`refreshing`) for the same order.
public actor AntomAdapter: PaymentProviderAdapter {
    public let provider: String
    public let client: AntomClient
    public let settings: AntomPaymentSettings
    private let notifications: (any AntomNotificationSource)?
    private let http: ProviderHTTPClient
    private let report: AntomEventReporter
    /// The bank component's logger.
    private let log: SDKLogger
    /// Where the bank sends the customer back.
    private let redirectURL: String
    /// The component's `sandbox` option.
    private let sandboxEnvironment: Bool
    private let now: @Sendable () -> Date
    /// How long a decided inquiry waits for the notification it must agree with.
    private let notificationWait: Duration
    /// How long an undecided poll waits for a notification before it returns (under the poll interval).
    private let heldPoll: Duration
    /// The live component; a new payment destroys it first.
    private var component: AntomComponent?
    /// Each session's order, by paymentRequestId, to re-create it for the same order.
    private var sessions: [String: Session] = [:]
    private var localeFallbackSaid = false
    private var keyReadAhead = false
    private var pendingSaid: Set<String> = []

    private struct Session {
        var order: PaymentOrder
        var ids: AttemptIdentifiers
        var settings: AntomPaymentSettings
        /// How many times this attempt's session was re-created.
        var renewals: Int
    }

    public init(
        provider: String, client: AntomClient, settings: AntomPaymentSettings, notifications: (any AntomNotificationSource)?, http: ProviderHTTPClient,
        redirectURL: String, sandboxEnvironment: Bool, notificationWait: Duration = .seconds(3), heldPoll: Duration = .milliseconds(800),
        now: @escaping @Sendable () -> Date = { Date() },
        report: @escaping AntomEventReporter, log: @escaping SDKLogger = { _ in }
    ) {
        self.log = log
        self.provider = provider
        self.client = client
        self.settings = settings
        self.notifications = notifications
        self.http = http
        self.redirectURL = redirectURL
        self.sandboxEnvironment = sandboxEnvironment
        self.notificationWait = notificationWait
        self.heldPoll = heldPoll
        self.now = now
        self.report = report
    }

    /// Leaving the checkout destroys the component, then stops listening.
    public func close() async {
        await component?.destroy()
        component = nil
        await notifications?.close()
    }

    public func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        let settings = settings.applying(order.providerOptions)
        if let spelling = settings.localeSpelling, AntomLocale.resolve(spelling).fellBack, !localeFallbackSaid {
            localeFallbackSaid = true
            report(AntomEvent(name: "LOCALE_FALLBACK", summary: AntomLocale.fallbackNotice(spelling)))
        }
        let session = Session(order: order, ids: ids, settings: settings, renewals: 0)
        return try await open(session, requestID: ids.idempotencyKey)
    }

    /// Antom has no update: the cart changed before the customer paid, so a new session for it.
    public func update(_ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        var session = attempt.id.flatMap { sessions[$0] } ?? Session(order: order, ids: ids, settings: settings.applying(order.providerOptions), renewals: 0)
        session.order = order
        session.renewals += 1
        return try await open(session, requestID: "\(ids.idempotencyKey)-r\(session.renewals)")
    }

    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        guard let requestID = attempt.id, var session = sessions[requestID] else {
            throw ProviderFailure(kind: .unexpected, category: "ANTOM", code: "UNKNOWN_SESSION", detail: "no payment session \(attempt.id ?? "?") in this checkout")
        }
        if refreshing {
            session.renewals += 1
            return try await open(session, requestID: "\(session.ids.idempotencyKey)-r\(session.renewals)")
        }
        guard var answer = try await inquire(requestID) else { return attempt }
        // Held open: a verified notification that Antom decided is acted on now, not at the next tick.
        if answer.status?.isFinal != true, !attempt.linkExpired(now: now()), let notifications,
           await notifications.notification(for: requestID, timeout: heldPoll) != nil {
            guard let decided = try await inquire(requestID) else { return attempt }
            answer = decided
        }
        var next = attempt
        switch answer.status {
        case .success?:
            try await agree(requestID: requestID, succeeded: true, inquired: "SUCCESS")
            next.status = .approved
            next.grants = [answer.paymentId ?? requestID]
        case .fail?, .cancelled?:
            try await agree(requestID: requestID, succeeded: false, inquired: answer.paymentStatus ?? "FAIL")
            next.status = .declined
            next.declineReason = answer.paymentResultCode ?? answer.paymentStatus
        case .pending?:
            if pendingSaid.insert(requestID).inserted {
                report(AntomEvent(
                    name: "INQUIRY_PENDING", summary: "the bank took the payment; Antom has not confirmed it yet (inquiryPayment: PENDING)",
                    fields: ["paymentRequestId": requestID]))
            }
            next.status = .processing
        case .processing?, nil:
            next.status = .processing
            // Unpaid and about to expire: the machine re-creates it (`refreshing`).
            next.needsRenewal = attempt.linkExpired(now: now())
        }
        return next
    }

    /// inquiryPayment by request id; nil while Antom says PAYMENT_IN_PROCESS (an answer, not a failure).
    private func inquire(_ requestID: String) async throws(ProviderFailure) -> AntomInquiryPaymentResponse? {
        do { return try await client.inquiryPayment(AntomInquiryPaymentRequest(paymentRequestId: requestID)) } catch {
            if case .result(let result) = error, result.resultCode == "PAYMENT_IN_PROCESS" { return nil }
            throw ProviderFailure(antom: error)
        }
    }

    /// The receipt's payment id is Antom's `paymentId`.
    public func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome {
        let paymentID = attempt.grants.first ?? attempt.id ?? ""
        return .completed(SettlementReceipt(paymentID: paymentID, details: ["payment_request_id": attempt.id ?? ""]))
    }

    // MARK: Sessions

    /// Destroys the previous component, creates the session, loads the new component.
    private func open(_ session: Session, requestID: String) async throws(ProviderFailure) -> PaymentAttempt {
        if !keyReadAhead {
            // The signing key is read and readied on another core while the receiver starts (each
            // takes half as long as a signature); the first request's signing waits for the read.
            keyReadAhead = true
            Task.detached { [client] in AntomSignature.prepareForSigning(client.configuration.privateKey) }
        }
        await component?.destroy()
        component = nil
        let notifyURL = try await notifications?.prepare()
        let order = session.order
        let amount = AntomAmount(currency: order.amount.currency.code, minorUnits: order.amount.minorUnits)
        let reference = order.reference ?? session.ids.reference
        let items = order.cart.items.reduce(0) { $0 + $1.quantity }
        let expiry = session.settings.sessionLifetimeSeconds.map { AntomTime.string(now().addingTimeInterval(TimeInterval($0))) }
        let request = AntomCreatePaymentSessionRequest(
            productCode: session.settings.productCode, paymentRequestId: requestID, paymentAmount: amount,
            order: AntomOrder(
                referenceOrderId: reference, orderDescription: "\(order.merchantName): \(items) item\(items == 1 ? "" : "s")", orderAmount: amount),
            paymentMethod: AntomPaymentMethod(paymentMethodType: "BANK", paymentMethodMetaData: session.settings.mode.metaData),
            paymentNotifyUrl: notifyURL, paymentRedirectUrl: redirectURL,
            settlementStrategy: AntomSettlementStrategy(settlementCurrency: session.settings.settlementCurrency ?? order.amount.currency.code),
            paymentSessionExpiryTime: expiry)
        let created: AntomCreatePaymentSessionResponse
        do { created = try await client.createPaymentSession(request) } catch { throw ProviderFailure(antom: error) }
        sessions[requestID] = session
        let expiresAt = created.paymentSessionExpiryTime.flatMap(AntomTime.date)
        var attempt = PaymentAttempt(
            provider: provider, id: requestID, status: .pending, amount: order.amount, reference: reference, linkRefreshesAt: expiresAt)
        if session.settings.hostedCashierOnly, let hosted = created.normalUrl {
            // The real Antom's session data is opaque: the hosted cashier lists the banks.
            attempt.authorizationURL = hosted
            report(AntomEvent(name: "HOSTED_CASHIER", summary: "the bank list is on Antom's hosted cashier page"))
            return attempt
        }
        let configuration = AntomComponent.Configuration(
            locale: session.settings.locale, sandbox: sandboxEnvironment, showLoading: session.settings.showLoading,
            clientKind: session.settings.clientKind)
        let component = AntomComponent(
            sessionData: created.paymentSessionData ?? "", configuration: configuration, mode: session.settings.mode, http: http, report: report, log: log)
        self.component = component
        let view: AntomComponentView
        do { view = try await component.load() } catch { throw error.providerFailure }
        attempt.authorizationURL = view.link
        attempt.offers = view.banks.map { session.settings.locale == .thai ? $0.localName : $0.displayName }
        return attempt
    }

    /// A decided inquiry must agree with the verified notification; none in time is said, not fatal.
    private func agree(requestID: String, succeeded: Bool, inquired: String) async throws(ProviderFailure) {
        guard let notifications else { return }
        guard let notified = await notifications.notification(for: requestID, timeout: notificationWait) else {
            report(AntomEvent(
                name: "NO_NOTIFICATION", summary: "no verified notifyPayment for \(requestID) yet; decided by inquiryPayment (\(inquired))",
                fields: ["paymentRequestId": requestID]))
            return
        }
        if notified.result.succeeded != succeeded {
            throw .antomDisagreement(notified: "\(notified.result.resultCode) (\(notified.result.resultStatus))", inquired: inquired, request: requestID)
        }
    }
}
