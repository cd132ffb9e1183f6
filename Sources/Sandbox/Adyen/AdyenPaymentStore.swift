import Foundation
import ProviderWire
import Synchronization

/// Adyen payments by pspReference, the grants they used (a grant pays once), their
/// modifications, and the ledger rows proving nothing was charged twice. Bounded like the
/// other stores: past the retention age or the capacity, the oldest payments are forgotten.
public final class AdyenPaymentStore: Sendable {
    struct Payment: Sendable {
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

    private struct State: Sendable {
        var payments: [String: Payment] = [:]
        /// Grant id → the payment it paid.
        var usedGrants: [String: String] = [:]
        var age = RetentionQueue()
        var nextSequence = 0

        mutating func evict(now: Date, limits: SandboxLimits, capacity: Int) {
            for psp in age.evict(now: now, retention: limits.requestRetention, capacity: capacity) {
                if let gone = payments.removeValue(forKey: psp), let grant = gone.grantID, usedGrants[grant] == psp {
                    usedGrants.removeValue(forKey: grant)
                }
            }
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// How many payments it holds.
    public var count: Int { state.withLock { $0.payments.count } }

    func payment(_ psp: String) -> Payment? { state.withLock { $0.payments[psp] } }

    /// The payment `grantID` already paid, if any.
    func paymentUsing(grant grantID: String) -> String? { state.withLock { $0.usedGrants[grantID] } }

    enum AddOutcome {
        case added(Payment)
        case grantAlreadyUsed(by: String)
    }

    /// Keeps a payment; a payment that consumes a grant is refused when another consumed it
    /// first (checked under the same lock, so two racing requests cannot both pay).
    func add(_ payment: Payment, consumesGrant: Bool, now: Date, limits: SandboxLimits) -> AddOutcome {
        state.withLock { state in
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests)
            if consumesGrant, let grant = payment.grantID, let other = state.usedGrants[grant] { return .grantAlreadyUsed(by: other) }
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests - 1)
            var payment = payment
            payment.sequence = state.nextSequence
            state.nextSequence += 1
            state.payments[payment.pspReference] = payment
            state.age.append(payment.pspReference, createdAt: now)
            if consumesGrant, let grant = payment.grantID { state.usedGrants[grant] = payment.pspReference }
            return .added(payment)
        }
    }

    /// Changes a payment under the lock; `change` returns what the caller needs to know.
    func update<T>(_ psp: String, _ change: (inout Payment) -> T) -> T? {
        state.withLock { state in
            guard var payment = state.payments[psp] else { return nil }
            let result = change(&payment)
            state.payments[psp] = payment
            return result
        }
    }

    func evictDue(now: Date, limits: SandboxLimits) {
        state.withLock { $0.evict(now: now, limits: limits, capacity: limits.maxStoredRequests) }
    }

    /// Authorised payments, in the order they were made.
    public var paymentRows: [PaymentRow] {
        state.withLock { state in
            state.payments.values.filter { $0.resultCode == .authorised }.sorted { $0.sequence < $1.sequence }.map {
                PaymentRow(
                    pspReference: $0.pspReference, merchantReference: $0.reference, amount: $0.amount.value,
                    currency: $0.amount.currency, idempotencyKey: $0.idempotencyKey, resultCode: $0.resultCode.rawValue)
            }
        }
    }

    public var captureRows: [CaptureRow] {
        state.withLock { state in state.payments.values.sorted { $0.sequence < $1.sequence }.flatMap(\.captures) }
    }
}
