import Foundation
import ProviderWire

/// Adyen payments by pspReference, the grants they used (a grant pays once), their
/// modifications, and the ledger rows proving nothing was charged twice. Bounded like the
/// other stores: past the retention age or the capacity, the oldest payments are forgotten.
public final class AdyenPaymentStore: Sendable {
    struct Payment: StoredRecord {
        let pspReference: String
        let merchantAccount: String
        let reference: String
        let amount: AdyenAmount
        let idempotencyKey: String?
        let grantID: String?
        let shopperReference: String?
        var resultCode: AdyenResultCode
        var refusalReason: String?
        var refusalReasonCode: String?
        var additionalData: [String: String]?
        /// Apple Pay's type and brand (Cash App payments answer none).
        var paymentMethod: AdyenResponsePaymentMethod?
        var captured = 0
        var refunded = 0
        var cancelled = false
        var captures: [CaptureRow] = []
        /// Creation order, for the ledger (a manual clock gives many payments one time).
        var sequence = 0
        /// The grant this payment used up: no other payment may use it while this one is kept.
        var consumedGrant: String?

        var storeKey: String { pspReference }
        var storeClaims: [String] { consumedGrant.map { [$0] } ?? [] }

        var response: AdyenPaymentResponse {
            AdyenPaymentResponse(
                pspReference: pspReference, resultCode: resultCode.rawValue, refusalReason: refusalReason,
                refusalReasonCode: refusalReasonCode, additionalData: additionalData, amount: amount, merchantReference: reference,
                paymentMethod: paymentMethod)
        }
    }

    /// One row of `adyen_payments` in `GET /sandbox/ledger`: a payment that was Authorised.
    public struct PaymentRow: Codable, Hashable, Sendable {
        public let pspReference: String
        public let merchantReference: String
        public let amount: Int
        public let currency: String
        public let idempotencyKey: String?
        public let resultCode: String

        enum CodingKeys: String, CodingKey {
            case amount, currency
            case pspReference = "psp_reference"
            case merchantReference = "merchant_reference"
            case idempotencyKey = "idempotency_key"
            case resultCode = "result_code"
        }
    }

    /// One row of `adyen_captures`: a capture that moved money.
    public struct CaptureRow: Codable, Hashable, Sendable {
        public let pspReference: String
        public let paymentPspReference: String
        public let amount: Int
        public let currency: String

        enum CodingKeys: String, CodingKey {
            case amount, currency
            case pspReference = "psp_reference"
            case paymentPspReference = "payment_psp_reference"
        }
    }

    private let payments = MemoryRecordStore<Payment>()

    public init() {}

    /// How many payments it holds.
    public var count: Int { payments.count() }

    func payment(_ psp: String) -> Payment? { payments.record(.key(psp)) }

    /// The payment `grantID` already paid, if any.
    func paymentUsing(grant grantID: String) -> String? { payments.record(.claim(grantID))?.pspReference }

    enum AddOutcome {
        case added(Payment)
        case grantAlreadyUsed(by: String)
    }

    /// Keeps a payment; a payment that consumes a grant is refused when another consumed it
    /// first (in the same unit of work, so two racing requests cannot both pay).
    func add(_ payment: Payment, consumesGrant: Bool, now: Date, limits: SandboxLimits) -> AddOutcome {
        let grant = consumesGrant ? payment.grantID : nil
        let outcome = payments.create(requiring: grant.map { [$0] } ?? [], at: StoreMoment(now: now, limits: limits)) { sequence in
            var payment = payment
            payment.sequence = sequence
            payment.consumedGrant = grant
            return payment
        }
        switch outcome {
        case .created(let added), .replayed(let added), .keyReused(let added): return .added(added)
        case .claimTaken(let other): return .grantAlreadyUsed(by: other.pspReference)
        }
    }

    /// Changes a payment in one unit of work; `change` returns what the caller needs to know.
    func update<T>(_ psp: String, _ change: (inout Payment) -> T) -> T? {
        payments.update(.key(psp), change).value
    }

    func evictDue(now: Date, limits: SandboxLimits) {
        payments.settle(at: StoreMoment(now: now, limits: limits))
    }

    /// Authorised payments, in the order they were made.
    public var paymentRows: [PaymentRow] {
        payments.records().filter { $0.resultCode == .authorised }.map {
            PaymentRow(
                pspReference: $0.pspReference, merchantReference: $0.reference, amount: $0.amount.value,
                currency: $0.amount.currency, idempotencyKey: $0.idempotencyKey, resultCode: $0.resultCode.rawValue)
        }
    }

    public var captureRows: [CaptureRow] { payments.records().flatMap(\.captures) }
}
