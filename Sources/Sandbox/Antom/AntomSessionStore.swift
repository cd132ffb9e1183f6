import Foundation
import ProviderWire
import Synchronization

/// The Antom sandbox's payment sessions, by session id, by the client's paymentRequestId and
/// paymentId, and by order; every operation one unit of work, so one order is never paid twice.
/// Time is applied lazily: every call first closes sessions past their expiry and confirms
/// PENDING ones whose moment came (with the sandbox's clock). Bounded like the other stores:
/// past the retention age sessions are forgotten, and past the capacity the oldest decided one
/// goes first (the oldest of all only when none is decided).
///
/// Every change that calls for a notification hands it to the sink (set by the provider when it
/// is registered), after the unit of work.
final class AntomSessionStore: Sendable {
    enum CreateOutcome: Sendable {
        case created(AntomSessionRecord)
        /// The same paymentRequestId and body again: the same session, nothing new.
        case replay(AntomSessionRecord)
        /// The same paymentRequestId with another body.
        case inconsistent
        /// The order is already paid (by the session with this paymentRequestId).
        case orderClosed(String)
    }

    enum Action: Sendable {
        case pay(bank: String)
        case fail(bank: String?)
        case abandon
    }

    enum Refusal: Error {
        case notFound
        /// It is not PROCESSING any more: the customer cannot act on it.
        case notOpen(AntomSessionRecord)
        /// Another session of its order has been paid.
        case orderTaken(AntomSessionRecord)
    }

    enum InquiryOutcome: Sendable {
        case found(AntomInquiryPaymentResponse)
        /// Magic 8202's one REQUEST_TRAFFIC_EXCEED_LIMIT.
        case trafficLimited
        case notFound
    }

    /// Where notifications go, once the provider is registered.
    private final class Sink: Sendable {
        let handler = Mutex<(@Sendable ([AntomNotice]) -> Void)?>(nil)

        func send(_ notices: [AntomNotice]) {
            if !notices.isEmpty, let handler = handler.withLock({ $0 }) { handler(notices) }
        }
    }

    private let sink: Sink
    private let sessions: ProviderStore<AntomSessionRecord>

    init(storage: any SandboxStorage) {
        let sink = Sink()
        self.sink = sink
        sessions = ProviderStore(
            "antom.sessions", in: storage,
            policy: StorePolicy(
                settle: { record, now in record.settle(now: now) },
                onSettled: { settled in sink.send(settled.compactMap(\.latestNotice)) },
                forgetsSettledFirst: true, settlesAt: \.settlesAt))
    }

    /// Where notifications go from now on.
    func setSink(_ handler: @escaping @Sendable ([AntomNotice]) -> Void) {
        sink.handler.withLock { $0 = handler }
    }

    var count: Int { get async throws { try await sessions.count() } }

    /// Keeps the session `make` builds (given its creation number), unless the paymentRequestId is
    /// known (then the same body replays it and another is refused) or the order is paid. A new
    /// session closes its order's unpaid ones (superseded).
    func create(
        clientID: String, paymentRequestId: String, referenceOrderId: String, fingerprint: Data, now: Date, limits: SandboxLimits,
        make: (_ sequence: Int) -> AntomSessionRecord
    ) async throws(SandboxStoreUnavailable) -> CreateOutcome {
        var notices: [AntomNotice] = []
        let outcome = try await sessions.create(
            idempotencyKey: AntomSessionRecord.scoped(clientID, paymentRequestId),
            requiring: [AntomSessionRecord.orderClaim(clientID, referenceOrderId)], at: StoreMoment(now: now, limits: limits),
            sameRequest: { $0.fingerprint == fingerprint },
            alongside: { earlier, new in
                guard earlier.status == .processing else { return }
                earlier.close(.superseded, supersededBy: new.id)
                if let notice = earlier.recordNotification() { notices.append(notice) }
            },
            // A database store may run the closures again (a retried transaction): each attempt
            // starts its notices afresh, and only a session that was made tells of those it closed.
            make: { sequence in
                notices.removeAll()
                return make(sequence)
            })
        if case .created = outcome { sink.send(notices) }
        switch outcome {
        case .created(let record): return .created(record)
        case .replayed(let record): return .replay(record)
        case .keyReused: return .inconsistent
        case .claimTaken(let paid): return .orderClosed(paid.paymentRequestId)
        }
    }

    /// The customer acts on session `id`; only a PROCESSING session moves. `pendingDelay` is how
    /// long (sandbox seconds) magic 8001 stays PENDING.
    func act(_ action: Action, on id: String, now: Date, pendingDelay: Double) async throws(SandboxStoreUnavailable) -> Result<AntomSessionRecord, Refusal> {
        var notice: AntomNotice?
        let outcome = try await sessions.update(.key(id), at: StoreMoment(now: now)) { record -> Result<AntomSessionRecord, Refusal> in
            guard record.status == .processing else { return .failure(.notOpen(record)) }
            switch action {
            case .pay(let bank):
                switch record.minorUnits {
                case AntomMagic.riskReject:
                    record.fail(bank: bank, code: "RISK_REJECT", message: "The payment was rejected by risk control.", at: now)
                case AntomMagic.pendingThenPaid:
                    record.pend(bank: bank, at: now, confirmAt: now.addingTimeInterval(pendingDelay))
                default:
                    record.succeed(bank: bank, at: now)
                }
            case .fail(let bank):
                record.fail(bank: bank, code: "USER_BALANCE_NOT_ENOUGH", message: "The user's balance is not enough to pay.", at: now)
            case .abandon:
                record.close(.abandoned)
            }
            notice = record.recordNotification()
            return .success(record)
        }
        switch outcome {
        case .notFound: return .failure(.notFound)
        // Paying would take an order another session of it holds.
        case .claimTaken(let paid): return .failure(.orderTaken(paid))
        case .changed(let result):
            if let notice { sink.send([notice]) }
            return result
        }
    }

    /// Settles what time changed (expiries, magic 8001's confirmations) and sends their
    /// notifications: the sandbox's due-time worker calls it.
    func applyDue(now: Date) async throws(SandboxStoreUnavailable) {
        try await sessions.settle(at: StoreMoment(now: now))
    }

    /// inquiryPayment: by `paymentId` when given (it wins), else by `paymentRequestId`.
    func inquire(clientID: String, paymentId: String?, paymentRequestId: String?, now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> InquiryOutcome {
        let moment = StoreMoment(now: now, limits: limits)
        let lookup: RecordLookup
        if let paymentId {
            lookup = .claim(AntomSessionRecord.paymentClaim(clientID, paymentId))
        } else if let paymentRequestId {
            lookup = .idempotencyKey(AntomSessionRecord.scoped(clientID, paymentRequestId))
        } else {
            try await sessions.settle(at: moment)
            return .notFound
        }
        return try await sessions.update(lookup, at: moment) { record -> InquiryOutcome in
            if record.minorUnits == AntomMagic.inquiryTrafficLimited, !record.trafficLimitAnswered {
                record.trafficLimitAnswered = true
                return .trafficLimited
            }
            return .found(record.inquiry)
        }.value ?? .notFound
    }

    func session(_ id: String, now: Date) async throws(SandboxStoreUnavailable) -> AntomSessionRecord? {
        try await sessions.record(.key(id), at: StoreMoment(now: now))
    }

    /// The session `id` names: a paymentSessionId, else the newest session with that paymentRequestId (any client).
    func sessionID(named id: String, now: Date) async throws(SandboxStoreUnavailable) -> String? {
        if try await sessions.record(.key(id), at: StoreMoment(now: now)) != nil { return id }
        return try await sessions.records().last { $0.paymentRequestId == id }?.id
    }

    /// Every session, oldest first, after time applied and the old forgotten.
    func all(now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> [AntomSessionRecord] {
        try await sessions.records(at: StoreMoment(now: now, limits: limits))
    }

    /// Every session, oldest first, after time applied (nothing forgotten: for the ledger's charges).
    func settled(now: Date) async throws(SandboxStoreUnavailable) -> [AntomSessionRecord] {
        try await sessions.records(at: StoreMoment(now: now))
    }

    /// How notification `index` of session `id` is being (or was) delivered.
    func recordDelivery(session id: String, index: Int, _ entry: WebhookDeliveryLog.Entry) async throws(SandboxStoreUnavailable) {
        _ = try await sessions.update(.key(id)) { record in
            guard record.notifications.indices.contains(index) else { return }
            // The delivery may have ended before its start is recorded: an end is never undone.
            if entry.outcome == .pending, record.notifications[index].deliveryID != nil { return }
            record.notifications[index].deliveryID = entry.id
            record.notifications[index].outcome = entry.outcome.rawValue
            record.notifications[index].attempts = entry.attempts
            record.notifications[index].lastStatus = entry.lastStatus
            record.notifications[index].lastError = entry.lastError
        }
    }
}

/// How the store keeps a session: paymentRequestIds, paymentIds and orders are each client's own.
extension AntomSessionRecord: StoredRecord {
    static func scoped(_ clientID: String, _ id: String) -> String { clientID + "\u{0}" + id }
    static func paymentClaim(_ clientID: String, _ paymentId: String) -> String { "payment\u{0}" + scoped(clientID, paymentId) }
    static func orderClaim(_ clientID: String, _ orderId: String) -> String { "order\u{0}" + scoped(clientID, orderId) }

    var storeKey: String { id }
    var storeIdempotencyKey: String? { Self.scoped(clientID, paymentRequestId) }
    /// Its paymentId, and its order while it holds it.
    var storeClaims: [String] {
        var claims: [String] = []
        if let paymentId { claims.append(Self.paymentClaim(clientID, paymentId)) }
        if holdsOrder { claims.append(Self.orderClaim(clientID, referenceOrderId)) }
        return claims
    }
    var storeGroup: String? { Self.scoped(clientID, referenceOrderId) }
    /// PROCESSING and PENDING: the only sessions time can change.
    var storeIsOpen: Bool { status == .processing || status == .pending }

    /// When `settle` first changes it: a processing session at its expiry, a pending one at its
    /// confirmation (at once when it has none); nil once closed.
    var settlesAt: Date? {
        switch status {
        case .processing: expiresAt
        // Pending ones are visited at any time: they confirm by the sandbox's clock or the wall's.
        case .pending: .distantPast
        default: nil
        }
    }

    /// Closes it once expired, confirms it once due, and records the notification: true when it did.
    fileprivate mutating func settle(now: Date) -> Bool {
        switch status {
        case .processing where expiresAt <= now:
            close(.expired)
        case .pending where (confirmAt ?? now) <= now || (confirmsBy ?? .distantFuture) <= Date():
            succeed(bank: bank ?? "", at: confirmAt ?? now)
        default:
            return false
        }
        _ = recordNotification()
        return true
    }

    /// Records a notification about its present state, when it has a notify URL: the one to send.
    fileprivate mutating func recordNotification() -> AntomNotice? {
        guard request.paymentNotifyUrl != nil else { return nil }
        let wrongKey = minorUnits == AntomMagic.notificationWrongKey
        let body = notification
        notifications.append(AntomNotificationRecord(
            notifyType: body.notifyType, resultCode: body.result.resultCode, resultStatus: body.result.resultStatus,
            url: request.paymentNotifyUrl ?? "", signedWith: wrongKey ? "wrong-key" : "sandbox"))
        return latestNotice
    }

    /// The notice for its latest notification.
    fileprivate var latestNotice: AntomNotice? {
        guard let url = request.paymentNotifyUrl, !notifications.isEmpty else { return nil }
        return AntomNotice(
            sessionID: id, index: notifications.count - 1, clientID: clientID, url: url, body: notification,
            wrongKey: minorUnits == AntomMagic.notificationWrongKey)
    }
}
