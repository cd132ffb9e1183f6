import Foundation
import ProviderWire

/// Square payments by id and by idempotency key, their delayed-capture deadlines, and the ledger
/// rows proving what money moved. Bounded like the other stores: past the retention age or the
/// capacity, the oldest payments (and their keys) are forgotten. One seller: every accepted token
/// sees every payment, and idempotency keys are the seller's.
public final class SquarePaymentStore: Sendable {
    struct Record: StoredRecord, Codable, Equatable {
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
        /// UpdatePayment's idempotency keys on this payment with their bodies, oldest first (the
        /// last `maxUpdateKeys`).
        var updateKeys: [UpdateKey] = []
        static let maxUpdateKeys = 32

        /// One UpdatePayment idempotency key and the body it came with.
        struct UpdateKey: Codable, Equatable {
            let key: String
            let fingerprint: Data
        }

        var id: String { payment.id }
        var storeKey: String { id }
        var storeIdempotencyKey: String? { idempotencyKey }
        var storeClaims: [String] { spentSource.map { [$0] } ?? [] }
        /// An APPROVED payment with a deadline: time will complete or cancel it.
        var storeIsOpen: Bool { dueAt != nil && status == "APPROVED" }
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

        /// Applies the delay action once its deadline has passed: true when it did.
        mutating func applyDelay(now: Date) -> Bool {
            guard storeIsOpen, let due = dueAt, due <= now else { return false }
            if payment.delayAction == "COMPLETE" { complete(at: due) } else { cancel(at: due, byDelay: true) }
            return true
        }

        enum UpdateOutcome { case new, replay, keyReused }

        /// Whether an UpdatePayment with this key is new, a retry of one applied, or the key reused.
        func updateOutcome(key: String, fingerprint: Data) -> UpdateOutcome {
            guard let known = updateKeys.first(where: { $0.key == key }) else { return .new }
            return known.fingerprint == fingerprint ? .replay : .keyReused
        }

        /// UpdatePayment: the new amount, tip, fee or delay action; the total (and the amount
        /// approved) follow the amount and tip. An update that changes nothing keeps the version.
        mutating func update(
            amount: SquareMoney?, tip: SquareMoney?, appFee: SquareMoney?, delayAction: String?, key: String, fingerprint: Data, at time: Date
        ) {
            updateKeys.append(UpdateKey(key: key, fingerprint: fingerprint))
            if updateKeys.count > Self.maxUpdateKeys { updateKeys.removeFirst(updateKeys.count - Self.maxUpdateKeys) }
            let before = payment
            if let amount { payment.amountMoney = amount }
            if let tip { payment.tipMoney = tip }
            if let appFee { payment.appFeeMoney = appFee }
            if let delayAction { payment.delayAction = delayAction }
            if let currency = payment.totalMoney?.currency {
                let total = SquareMoney(amount: (payment.amountMoney?.amount ?? 0) + (payment.tipMoney?.amount ?? 0), currency: currency)
                payment.totalMoney = total
                payment.approvedMoney = total
            }
            if payment != before { touch(at: time) }
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

    private let records: ProviderStore<Record>

    init(storage: any SandboxStorage) {
        // settlesAt: a database store then reads only the payments whose delay deadline has passed.
        records = ProviderStore(
            "square.payments", in: storage,
            policy: StorePolicy(settle: { record, now in record.applyDelay(now: now) }, settlesAt: { $0.dueAt }))
    }

    /// How many payments it holds.
    public var count: Int { get async throws { try await records.count() } }

    /// Keeps the payment `make` builds, unless its idempotency key is known: then the same body
    /// replays that payment and another body is refused. A single-use source (`consuming`) pays
    /// once: another key with it is refused. One unit of work, so two racing requests with one
    /// key, or one nonce, make one payment.
    func create(key: String, fingerprint: Data, now: Date, limits: SandboxLimits, consuming source: String? = nil, make: () -> Record) async throws(SandboxStoreUnavailable) -> CreateOutcome {
        let outcome = try await records.create(
            idempotencyKey: key, requiring: source.map { [$0] } ?? [], at: StoreMoment(now: now, limits: limits),
            sameRequest: { $0.fingerprint == fingerprint }
        ) { sequence in
            var record = make()
            record.sequence = sequence
            record.spentSource = source
            return record
        }
        switch outcome {
        case .created(let record): return .created(record)
        case .replayed(let record): return .replay(record)
        case .keyReused: return .keyReused
        case .claimTaken(let other): return .sourceUsed(byPayment: other.id)
        }
    }

    /// Whether it holds a payment with this id (nothing applied or forgotten: for telling claimed
    /// requests apart).
    func contains(_ id: String) async throws(SandboxStoreUnavailable) -> Bool { try await records.record(.key(id)) != nil }

    func payment(_ id: String, now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> Record? {
        try await records.record(.key(id), at: StoreMoment(now: now, limits: limits))
    }

    /// Changes a payment (after due actions applied); nil when it is not known. A refused change
    /// leaves the payment as it was.
    func change(
        _ id: String, now: Date, limits: SandboxLimits, _ body: (inout Record) -> Result<Void, SquareRejection>
    ) async throws(SandboxStoreUnavailable) -> Result<Record, SquareRejection>? {
        try await records.update(.key(id), at: StoreMoment(now: now, limits: limits)) { record in
            var changed = record
            if case .failure(let rejection) = body(&changed) { return .failure(rejection) }
            record = changed
            return .success(record)
        }.value
    }

    /// The payment a CreatePayment with `key` made, if any.
    func paymentID(idempotencyKey key: String, now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> String? {
        try await records.record(.idempotencyKey(key), at: StoreMoment(now: now, limits: limits))?.id
    }

    /// Every payment, oldest first, after due actions applied.
    func all(now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> [Record] {
        try await records.records(at: StoreMoment(now: now, limits: limits))
    }

    /// Applies due delay actions without forgetting anything (for the ledger's charges).
    func applyDue(now: Date) async throws(SandboxStoreUnavailable) -> [Record] {
        try await records.records(at: StoreMoment(now: now))
    }
    func ledgerRows(now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> [LedgerRow] {
        try await all(now: now, limits: limits).map { record in
            let payment = record.payment
            return LedgerRow(
                paymentID: record.id, referenceID: payment.referenceID, idempotencyKey: record.idempotencyKey, status: record.status,
                amount: payment.amountMoney?.amount ?? 0, tip: payment.tipMoney?.amount ?? 0, total: payment.totalMoney?.amount ?? 0,
                currency: payment.amountMoney?.currency ?? "", moved: record.moved, offline: payment.isOfflinePayment ?? false)
        }
    }
}
