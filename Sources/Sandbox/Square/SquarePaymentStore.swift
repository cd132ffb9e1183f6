import Foundation
import ProviderWire
import Synchronization

/// Square payments by id and by idempotency key, their delayed-capture deadlines, and the ledger
/// rows proving what money moved. Bounded like the other stores: past the retention age or the
/// capacity, the oldest payments (and their keys) are forgotten. One seller: every accepted token
/// sees every payment, and idempotency keys are the seller's.
public final class SquarePaymentStore: Sendable {
    struct Record: Sendable {
        var payment: SquarePayment
        /// What a declined (FAILED) payment was answered with, replayed with it.
        let errors: [SquareError]?
        let idempotencyKey: String
        /// The canonical create body: the same key with another body is IDEMPOTENCY_KEY_REUSED.
        let fingerprint: Data
        let createdAt: Date
        /// When the delay action applies by itself: creation + delay ÷ time scale. Set while APPROVED.
        var dueAt: Date?
        /// Canceled by its delay rather than by a call (DELAYED_TRANSACTION_EXPIRED afterwards).
        var canceledByDelay = false
        /// Creation order, for listing and the ledger (a manual clock gives many payments one time).
        var sequence = 0
        /// Where the receipt page is served (the sandbox's base URL as the creating client saw it).
        let receiptBase: String
        /// The single-use source (a wallet nonce) this payment spent.
        var spentSource: String?

        var id: String { payment.id }
        var status: String { payment.status }

        var response: SquarePaymentResponse { SquarePaymentResponse(payment: payment, errors: errors) }

        /// Minor units of money moved: the total while APPROVED or COMPLETED, else nothing.
        var moved: Int { ["APPROVED", "COMPLETED"].contains(status) ? payment.totalMoney?.amount ?? 0 : 0 }

        mutating func complete(at time: Date) {
            payment.status = "COMPLETED"
            payment.cardDetails?.status = "CAPTURED"
            payment.receiptNumber = String(id.prefix(4))
            payment.receiptURL = "\(receiptBase)/sandbox/square/receipts/\(id)"
            dueAt = nil
            touch(at: time)
        }

        mutating func cancel(at time: Date, byDelay: Bool) {
            payment.status = "CANCELED"
            payment.cardDetails?.status = "VOIDED"
            payment.receiptNumber = nil
            payment.receiptURL = nil
            dueAt = nil
            canceledByDelay = byDelay
            touch(at: time)
        }

        /// Every change gets a new version token.
        private mutating func touch(at time: Date) {
            payment.updatedAt = ISO8601Milliseconds.string(from: time)
            payment.versionToken = SquareIDs.versionToken()
        }
    }

    /// One row of `square_payments` in `GET /sandbox/ledger`.
    public struct LedgerRow: Codable, Hashable, Sendable {
        public let paymentID: String
        public let referenceID: String?
        public let idempotencyKey: String
        public let status: String
        public let amount: Int
        public let tip: Int
        public let total: Int
        public let currency: String
        /// Minor units moved: the total while APPROVED or COMPLETED, 0 once CANCELED or FAILED.
        public let moved: Int
        public let offline: Bool

        enum CodingKeys: String, CodingKey {
            case status, amount, tip, total, currency, moved, offline
            case paymentID = "payment_id"
            case referenceID = "reference_id"
            case idempotencyKey = "idempotency_key"
        }
    }

    enum CreateOutcome {
        case created(Record)
        /// The same key and body again: the payment as it is now, no second charge.
        case replay(Record)
        case keyReused
        /// A single-use source another payment (another key) already spent.
        case sourceUsed(byPayment: String)
    }

    private struct State: Sendable {
        var records: [String: Record] = [:]
        var byKey: [String: String] = [:]
        /// Single-use source → the payment that spent it.
        var spentSources: [String: String] = [:]
        /// APPROVED payments with a deadline, so applying due actions looks only at them.
        var pending: Set<String> = []
        var age = RetentionQueue()
        var nextSequence = 0

        mutating func evict(now: Date, limits: SandboxLimits, capacity: Int) {
            for id in age.evict(now: now, retention: limits.requestRetention, capacity: capacity) {
                guard let gone = records.removeValue(forKey: id) else { continue }
                if byKey[gone.idempotencyKey] == id { byKey.removeValue(forKey: gone.idempotencyKey) }
                if let source = gone.spentSource, spentSources[source] == id { spentSources.removeValue(forKey: source) }
                pending.remove(id)
            }
        }

        /// Applies the delay action of every APPROVED payment whose deadline has passed.
        mutating func applyDue(now: Date) {
            for id in pending {
                guard var record = records[id], record.status == "APPROVED", let due = record.dueAt else {
                    pending.remove(id)
                    continue
                }
                guard due <= now else { continue }
                if record.payment.delayAction == "COMPLETE" { record.complete(at: due) } else { record.cancel(at: due, byDelay: true) }
                records[id] = record
                pending.remove(id)
            }
        }

        mutating func settle(now: Date, limits: SandboxLimits) {
            evict(now: now, limits: limits, capacity: limits.maxStoredRequests)
            applyDue(now: now)
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// How many payments it holds.
    public var count: Int { state.withLock { $0.records.count } }

    /// Keeps the payment `make` builds, unless its idempotency key is known: then the same body
    /// replays that payment and another body is refused. A single-use source (`consuming`) pays
    /// once: another key with it is refused. Checked under one lock, so two racing requests with
    /// one key, or one nonce, make one payment.
    func create(key: String, fingerprint: Data, now: Date, limits: SandboxLimits, consuming source: String? = nil, make: () -> Record) -> CreateOutcome {
        state.withLock { state in
            state.settle(now: now, limits: limits)
            if let id = state.byKey[key], let existing = state.records[id] {
                return existing.fingerprint == fingerprint ? .replay(existing) : .keyReused
            }
            if let source, let other = state.spentSources[source] { return .sourceUsed(byPayment: other) }
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests - 1)
            var record = make()
            record.sequence = state.nextSequence
            record.spentSource = source
            state.nextSequence += 1
            state.records[record.id] = record
            state.byKey[key] = record.id
            if let source { state.spentSources[source] = record.id }
            state.age.append(record.id, createdAt: now)
            if record.dueAt != nil { state.pending.insert(record.id) }
            return .created(record)
        }
    }

    /// Whether it holds a payment with this id (nothing applied or forgotten: for telling claimed
    /// requests apart).
    func contains(_ id: String) -> Bool { state.withLock { $0.records[id] != nil } }

    func payment(_ id: String, now: Date, limits: SandboxLimits) -> Record? {
        state.withLock { state in
            state.settle(now: now, limits: limits)
            return state.records[id]
        }
    }

    /// Changes a payment under the lock (after due actions applied); nil when it is not known.
    func change(
        _ id: String, now: Date, limits: SandboxLimits, _ body: (inout Record) -> Result<Void, SquareRejection>
    ) -> Result<Record, SquareRejection>? {
        state.withLock { state in
            state.settle(now: now, limits: limits)
            guard var record = state.records[id] else { return nil }
            if case .failure(let rejection) = body(&record) { return .failure(rejection) }
            state.records[id] = record
            if record.status != "APPROVED" { state.pending.remove(id) }
            return .success(record)
        }
    }

    /// The payment a CreatePayment with `key` made, if any.
    func paymentID(idempotencyKey key: String, now: Date, limits: SandboxLimits) -> String? {
        state.withLock { state in
            state.settle(now: now, limits: limits)
            return state.byKey[key]
        }
    }

    /// Every payment, oldest first, after due actions applied.
    func all(now: Date, limits: SandboxLimits) -> [Record] {
        state.withLock { state in
            state.settle(now: now, limits: limits)
            return state.records.values.sorted { $0.sequence < $1.sequence }
        }
    }

    /// Applies due delay actions without forgetting anything (for the ledger's charges).
    func applyDue(now: Date) -> [Record] {
        state.withLock { state in
            state.applyDue(now: now)
            return state.records.values.sorted { $0.sequence < $1.sequence }
        }
    }

    func ledgerRows(now: Date, limits: SandboxLimits) -> [LedgerRow] {
        all(now: now, limits: limits).map { record in
            let payment = record.payment
            return LedgerRow(
                paymentID: record.id, referenceID: payment.referenceID, idempotencyKey: record.idempotencyKey, status: record.status,
                amount: payment.amountMoney?.amount ?? 0, tip: payment.tipMoney?.amount ?? 0, total: payment.totalMoney?.amount ?? 0,
                currency: payment.amountMoney?.currency ?? "", moved: record.moved, offline: payment.isOfflinePayment ?? false)
        }
    }
}
