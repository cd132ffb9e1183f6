import Foundation
import Hummingbird
import ProviderWire
import Synchronization

/// Antom's (Alipay+) Payments API for bank payments through its cashier:
/// createPaymentSession and inquiryPayment under `/ams/api` and `/ams/sandbox/api` (`SANDBOX_`
/// client ids use the latter), every request verified by its client's RSA key and every answer
/// signed with the sandbox's (`GET /sandbox/antom/keys`; more clients at `POST
/// /sandbox/antom/clients`); the hosted cashier at `/sandbox/antom/cashier/{paymentSessionId}`
/// (JSON for the component, pages in English, Thai and Indonesian, and `pay|fail|abandon`);
/// signed notifyPayment to each session's `paymentNotifyUrl`; magic amounts in `AntomMagic`;
/// `antom_payments` and `charges` in `/sandbox/ledger`.
public final class AntomSandbox: SandboxProvider {
    public let id: String
    let store: AntomSessionStore
    let clients: AntomClients
    /// The API, once `register` has given it the server's settings and webhooks.
    private let api = Mutex<AntomAPI?>(nil)

    /// `async` as the other providers' are, for the registry's `makeSandbox`.
    public init(id: String, settings: SandboxSettings) async {
        self.id = id
        store = AntomSessionStore(storage: settings.storage)
        clients = AntomClients(storage: settings.storage)
    }

    public var summary: String {
        "Antom (Alipay+) Payments API under /ams/sandbox/api/v1/payments (SANDBOX_ client ids; others /ams/api), RSA-signed; "
            + "keys and test client at /sandbox/antom/keys; cashier pages at /sandbox/antom/cashier/{paymentSessionId}/page"
    }

    public var pathPrefixes: [String] { ["/ams/", "/sandbox/antom/"] }

    public func register(on router: some RouterMethods<SandboxRequestContext>, core: SandboxCore) {
        let api = makeAPI(core)
        self.api.withLock { $0 = api }
        // Weakly: the store keeps the sink, and must not keep itself.
        store.setSink { [weak store, notifier = api.notifier] notices in
            if let store { notifier.send(notices, recordingIn: store) }
        }
        api.notifier.recordEnds(in: store)
        api.register(on: router)
        AntomCashierRoutes(api: api).register(on: router)
        AntomKeyRoutes(clients: clients, limits: core.settings.limits).register(on: router)
    }

    /// The hosted cashier, open to whoever holds its link (the paymentSessionId in its path, 40
    /// random characters, is the secret, as at Antom) when the sandbox has a control token: what
    /// the bank component loads, the cashier and bank pages, and those pages' buttons.
    public var customerRoutes: [SandboxOpenRoute] {
        [
            SandboxOpenRoute(.get, "/sandbox/antom/cashier/:sessionID"),
            SandboxOpenRoute(.get, "/sandbox/antom/cashier/:sessionID/page"),
            SandboxOpenRoute(.get, "/sandbox/antom/cashier/:sessionID/banks/:bankName"),
        ] + ["pay", "fail", "abandon"].map { SandboxOpenRoute(.post, "/sandbox/antom/cashier/:sessionID/\($0)") }
    }

    private func makeAPI(_ core: SandboxCore) -> AntomAPI {
        if let api = api.withLock({ $0 }) { return api }
        let signer = AntomSigner(key: { AntomSigner.sandboxKey }, now: core.settings.now)
        return AntomAPI(
            store: store, clients: clients, settings: core.settings, signer: signer,
            notifier: AntomNotifier(webhooks: core.webhooks, signer: signer))
    }

    /// Sessions that expired or whose confirmation is due are settled (and notified) now.
    public func applyDue(now: Date) async throws {
        try await store.applyDue(now: now)
    }

    /// Faults answer in Antom's shape with their HTTP status: `U` (ask again), as a gateway error is.
    public func faultResponse(_ fault: InjectedFault) -> Response {
        let code = fault.kind == .rateLimited ? "REQUEST_TRAFFIC_EXCEED_LIMIT" : "UNKNOWN_EXCEPTION"
        return AntomJSON.result(AntomResult(resultCode: code, resultStatus: "U", resultMessage: fault.error.message), status: fault.error.status)
    }

    public func refusalResponse(_ refusal: SandboxError) -> Response {
        let code = [.methodNotAllowed, .notFound].contains(refusal.status) ? "INVALID_API" : refusal.code
        return AntomJSON.result(AntomResult(resultCode: code, resultStatus: "F", resultMessage: refusal.message), status: refusal.status)
    }

    /// `POST /sandbox/customer-requests/{id}/approve|decline` with a paymentSessionId or
    /// paymentRequestId: approve pays with the first bank offered, decline fails (balance not enough).
    public func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) async throws -> Response? {
        let api = makeAPI(core)
        guard let sessionID = try await store.sessionID(named: id, now: api.now), let record = try await store.session(sessionID, now: api.now) else {
            return nil
        }
        let step: AntomSessionStore.Action = approve ? .pay(bank: record.banks.first?.bankName ?? "") : .fail(bank: nil)
        return AntomCashierRoutes(api: api).answer(
            try await api.act(step, on: sessionID), fromBrowser: request.isFromBrowser,
            back: "/sandbox/antom/cashier/\(sessionID)/page", locale: .english)
    }

    /// `POST /sandbox/customer-requests/{id}/abandon` with a paymentSessionId or paymentRequestId:
    /// the customer leaves the cashier unpaid, and the session closes at once (CANCELLED, ORDER_IS_CLOSED).
    public func customerAbandons(_ id: String, request: Request, core: SandboxCore) async throws -> Response? {
        let api = makeAPI(core)
        guard let sessionID = try await store.sessionID(named: id, now: api.now) else { return nil }
        return AntomCashierRoutes(api: api).answer(
            try await api.act(.abandon, on: sessionID), fromBrowser: request.isFromBrowser,
            back: "/sandbox/antom/cashier/\(sessionID)/page", locale: .english)
    }

    /// `antom_payments`: every session, oldest first, with its status, order, amounts and notifications.
    public func ledgerSections(now: Date, limits: SandboxLimits) async throws -> [SandboxLedgerSection] {
        [SandboxLedgerSection(name: "antom_payments", rows: try await store.all(now: now, limits: limits).map(LedgerRow.init))]
    }

    /// One charge per SUCCESS payment (its amount, the order as reference).
    public func charges(now: Date) async throws -> [SandboxCharge] {
        try await store.settled(now: now).filter { $0.status == .success }.map { record in
            SandboxCharge(
                provider: id, id: record.paymentId ?? record.id, reference: record.referenceOrderId, amount: record.minorUnits, currency: record.currency)
        }
    }

    /// One row of `antom_payments`.
    struct LedgerRow: Encodable, Sendable {
        let paymentSessionId, paymentRequestId, clientId, referenceOrderId, status, currency, displayMode, createdAt, expiresAt: String
        let amount: Int
        /// Minor units moved: the amount once SUCCESS, else 0.
        let moved: Int
        let paymentId, paymentTime, paymentResultCode, bank, closedBecause, supersededBy: String?
        let notifications: [AntomNotificationRecord]

        init(_ record: AntomSessionRecord) {
            paymentSessionId = record.id
            paymentRequestId = record.paymentRequestId
            clientId = record.clientID
            referenceOrderId = record.referenceOrderId
            status = record.status.rawValue
            currency = record.currency
            displayMode = record.mode.spelling
            createdAt = AntomTime.string(record.createdAt)
            expiresAt = AntomTime.string(record.expiresAt)
            amount = record.minorUnits
            moved = record.status == .success ? record.minorUnits : 0
            paymentId = record.paymentId
            paymentTime = record.paymentTime.map(AntomTime.string)
            paymentResultCode = record.resultCode
            bank = record.bank
            closedBecause = record.closure?.rawValue
            supersededBy = record.supersededBy
            notifications = record.notifications
        }

        enum CodingKeys: String, CodingKey {
            case status, currency, amount, moved, bank, notifications
            case paymentSessionId = "payment_session_id"
            case paymentRequestId = "payment_request_id"
            case clientId = "client_id"
            case referenceOrderId = "reference_order_id"
            case displayMode = "display_mode"
            case createdAt = "created_at"
            case expiresAt = "expires_at"
            case paymentId = "payment_id"
            case paymentTime = "payment_time"
            case paymentResultCode = "payment_result_code"
            case closedBecause = "closed_because"
            case supersededBy = "superseded_by"
        }
    }
}

extension RunningSandbox {
    /// The Antom side of this sandbox, when it serves Antom.
    public var antomSandbox: AntomSandbox? { providers.lazy.compactMap { $0 as? AntomSandbox }.first }
}
