import Foundation
import ProviderWire
import Synchronization

/// The Antom sandbox's payment sessions, by session id, by the client's paymentRequestId and
/// paymentId, and by order; every change under one lock, so one order is never paid twice. Time
/// is applied lazily: every call first closes sessions past their expiry and confirms PENDING ones
/// whose moment came (with the sandbox's clock). Bounded like the other stores: past the retention
/// age sessions are forgotten, and past the capacity the oldest decided one goes first (the oldest
/// of all only when none is decided).
///
/// Every change that calls for a notification hands it to the sink (set by the provider when it
/// is registered), after the lock is released.
final class AntomSessionStore: Sendable {
    /// A client's id for something: paymentRequestIds, paymentIds and orders are each client's own.
    struct Key: Hashable, Sendable {
        let client: String
        let id: String
    }

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

    private struct State: Sendable {
        var sessions: [String: AntomSessionRecord] = [:]
        /// Session ids, oldest first.
        var order: [String] = []
        var byRequest: [Key: String] = [:]
        var byPayment: [Key: String] = [:]
        var byOrder: [Key: [String]] = [:]
        /// PROCESSING and PENDING sessions: the only ones time can change.
        var open: Set<String> = []
        var nextSequence = 0

        /// Closes the expired, confirms the due; their notifications go to `notices`.
        mutating func settle(now: Date, notices: inout [AntomNotice]) {
            for id in open {
                guard var record = sessions[id] else {
                    open.remove(id)
                    continue
                }
                switch record.status {
                case .processing where record.expiresAt <= now:
                    record.close(.expired)
                case .pending where (record.confirmAt ?? now) <= now:
                    record.succeed(bank: record.bank ?? "", at: record.confirmAt ?? now)
                case .processing, .pending:
                    continue
                default:
                    open.remove(id)
                    continue
                }
                sessions[id] = record
                open.remove(id)
                notify(id, into: &notices)
            }
        }

        /// Forgets sessions past the retention age, then (oldest decided first) beyond `capacity`.
        mutating func evict(now: Date, limits: SandboxLimits, capacity: Int) {
            while let first = order.first, let record = sessions[first], now.timeIntervalSince(record.createdAt) >= limits.requestRetention {
                remove(first)
            }
            while sessions.count > max(0, capacity), let victim = order.first(where: { sessions[$0]?.isDecided == true }) ?? order.first {
                remove(victim)
            }
        }

        mutating func remove(_ id: String) {
            if let index = order.firstIndex(of: id) { order.remove(at: index) }
            open.remove(id)
            guard let gone = sessions.removeValue(forKey: id) else { return }
            let requestKey = Key(client: gone.clientID, id: gone.paymentRequestId)
            if byRequest[requestKey] == id { byRequest.removeValue(forKey: requestKey) }
            if let paymentId = gone.paymentId, byPayment[Key(client: gone.clientID, id: paymentId)] == id {
                byPayment.removeValue(forKey: Key(client: gone.clientID, id: paymentId))
            }
            let orderKey = Key(client: gone.clientID, id: gone.referenceOrderId)
            byOrder[orderKey]?.removeAll { $0 == id }
            if byOrder[orderKey]?.isEmpty == true { byOrder.removeValue(forKey: orderKey) }
        }

        /// Records a notification about the session's present state, when it has a notify URL.
        mutating func notify(_ id: String, into notices: inout [AntomNotice]) {
            guard var record = sessions[id], let url = record.request.paymentNotifyUrl else { return }
            let body = record.notification
            let wrongKey = record.minorUnits == AntomMagic.notificationWrongKey
            record.notifications.append(AntomNotificationRecord(
                notifyType: body.notifyType, resultCode: body.result.resultCode, resultStatus: body.result.resultStatus, url: url,
                signedWith: wrongKey ? "wrong-key" : "sandbox"))
            notices.append(AntomNotice(
                sessionID: id, index: record.notifications.count - 1, clientID: record.clientID, url: url, body: body, wrongKey: wrongKey))
            sessions[id] = record
        }

        /// Keeps a changed session and its paymentId, and notifies about it.
        mutating func store(_ record: AntomSessionRecord, notices: inout [AntomNotice]) {
            sessions[record.id] = record
            if let paymentId = record.paymentId { byPayment[Key(client: record.clientID, id: paymentId)] = record.id }
            if record.status != .processing && record.status != .pending { open.remove(record.id) }
            notify(record.id, into: &notices)
        }
    }

    private let state = Mutex(State())
    private let sink = Mutex<(@Sendable ([AntomNotice]) -> Void)?>(nil)

    init() {}

    /// Where notifications go from now on.
    func setSink(_ handler: @escaping @Sendable ([AntomNotice]) -> Void) {
        sink.withLock { $0 = handler }
    }

    /// Runs `body` under the lock after time is applied, then hands its notifications on.
    private func withState<T>(now: Date, _ body: (inout State, inout [AntomNotice]) -> T) -> T {
        var notices: [AntomNotice] = []
        let value = state.withLock { state in
            state.settle(now: now, notices: &notices)
            return body(&state, &notices)
        }
        if !notices.isEmpty, let handler = sink.withLock({ $0 }) { handler(notices) }
        return value
    }

    var count: Int { state.withLock { $0.sessions.count } }

    /// Keeps the session `make` builds (given its creation number), unless the paymentRequestId is
    /// known (then the same body replays it and another is refused) or the order is paid. A new
    /// session closes its order's unpaid ones (superseded).
    func create(
        clientID: String, paymentRequestId: String, referenceOrderId: String, fingerprint: Data, now: Date, limits: SandboxLimits,
        make: (_ sequence: Int) -> AntomSessionRecord
    ) -> CreateOutcome {
        withState(now: now) { state, notices in
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests)
            if let id = state.byRequest[Key(client: clientID, id: paymentRequestId)], let existing = state.sessions[id] {
                return existing.fingerprint == fingerprint ? .replay(existing) : .inconsistent
            }
            let orderKey = Key(client: clientID, id: referenceOrderId)
            if let paid = (state.byOrder[orderKey] ?? []).compactMap({ state.sessions[$0] }).first(where: \.holdsOrder) {
                return .orderClosed(paid.paymentRequestId)
            }
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests - 1)
            let record = make(state.nextSequence)
            state.nextSequence += 1
            for earlier in state.byOrder[orderKey] ?? [] {
                guard var old = state.sessions[earlier], old.status == .processing else { continue }
                old.close(.superseded, supersededBy: record.id)
                state.store(old, notices: &notices)
            }
            state.sessions[record.id] = record
            state.order.append(record.id)
            state.byRequest[Key(client: clientID, id: paymentRequestId)] = record.id
            state.byOrder[orderKey, default: []].append(record.id)
            state.open.insert(record.id)
            return .created(record)
        }
    }

    /// The customer acts on session `id`; only a PROCESSING session moves. `pendingDelay` is how
    /// long (sandbox seconds) magic 8001 stays PENDING.
    func act(_ action: Action, on id: String, now: Date, pendingDelay: Double) -> Result<AntomSessionRecord, Refusal> {
        withState(now: now) { state, notices in
            guard var record = state.sessions[id] else { return .failure(.notFound) }
            guard record.status == .processing else { return .failure(.notOpen(record)) }
            switch action {
            case .pay(let bank):
                let siblings = state.byOrder[Key(client: record.clientID, id: record.referenceOrderId)] ?? []
                if let paid = siblings.compactMap({ state.sessions[$0] }).first(where: { $0.id != id && $0.holdsOrder }) {
                    return .failure(.orderTaken(paid))
                }
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
            state.store(record, notices: &notices)
            return .success(state.sessions[id] ?? record)
        }
    }

    /// A PENDING payment's confirmation came (magic 8001's timer): it becomes SUCCESS now.
    func confirm(_ id: String, now: Date) {
        withState(now: now) { state, notices in
            guard var record = state.sessions[id], record.status == .pending else { return }
            record.succeed(bank: record.bank ?? "", at: now)
            state.store(record, notices: &notices)
        }
    }

    /// inquiryPayment: by `paymentId` when given (it wins), else by `paymentRequestId`.
    func inquire(clientID: String, paymentId: String?, paymentRequestId: String?, now: Date, limits: SandboxLimits) -> InquiryOutcome {
        withState(now: now) { state, _ in
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests)
            let id: String? =
                if let paymentId { state.byPayment[Key(client: clientID, id: paymentId)] } else {
                    paymentRequestId.flatMap { state.byRequest[Key(client: clientID, id: $0)] }
                }
            guard let id, var record = state.sessions[id] else { return .notFound }
            if record.minorUnits == AntomMagic.inquiryTrafficLimited, !record.trafficLimitAnswered {
                record.trafficLimitAnswered = true
                state.sessions[id] = record
                return .trafficLimited
            }
            return .found(record.inquiry)
        }
    }

    func session(_ id: String, now: Date) -> AntomSessionRecord? {
        withState(now: now) { state, _ in state.sessions[id] }
    }

    /// The session `id` names: a paymentSessionId, else the newest session with that paymentRequestId (any client).
    func sessionID(named id: String, now: Date) -> String? {
        withState(now: now) { state, _ in
            if state.sessions[id] != nil { return id }
            return state.byRequest.filter { $0.key.id == id }.compactMap { state.sessions[$0.value] }.max { $0.sequence < $1.sequence }?.id
        }
    }

    /// Every session, oldest first, after time applied and the old forgotten.
    func all(now: Date, limits: SandboxLimits) -> [AntomSessionRecord] {
        withState(now: now) { state, _ in
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests)
            return state.order.compactMap { state.sessions[$0] }
        }
    }

    /// Every session, oldest first, after time applied (nothing forgotten: for the ledger's charges).
    func settled(now: Date) -> [AntomSessionRecord] {
        withState(now: now) { state, _ in state.order.compactMap { state.sessions[$0] } }
    }

    /// How notification `index` of session `id` is being (or was) delivered.
    func recordDelivery(session id: String, index: Int, _ entry: WebhookDeliveryLog.Entry) {
        state.withLock { state in
            guard var record = state.sessions[id], record.notifications.indices.contains(index) else { return }
            // The delivery may have ended before its start is recorded: an end is never undone.
            if entry.outcome == .pending, record.notifications[index].deliveryID != nil { return }
            record.notifications[index].deliveryID = entry.id
            record.notifications[index].outcome = entry.outcome.rawValue
            record.notifications[index].attempts = entry.attempts
            record.notifications[index].lastStatus = entry.lastStatus
            record.notifications[index].lastError = entry.lastError
            state.sessions[id] = record
        }
    }
}
