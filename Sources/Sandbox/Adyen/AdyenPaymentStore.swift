import Foundation
import ProviderWire
import Synchronization

/// Adyen payments by pspReference, the grants they used (a grant pays once), their
/// modifications, and the ledger rows proving nothing was charged twice. Bounded like the
/// other stores: past the retention age or the capacity, the oldest payments are forgotten.
public final class AdyenPaymentStore: Sendable {
    struct Payment: StoredRecord, Codable, Equatable {
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
        /// `RedirectShopper` (magic 70.06): the action to perform, and the secret the action's page
        /// hands back in `redirectResult` for `/payments/details` to complete it.
        var action: AdyenPaymentResponse.Action?
        var redirectNonce: String?
        /// Where the action's page sends the shopper back to.
        var returnUrl: String?
        /// The method to store once the action is completed (storing was asked for).
        var pendingStore: PendingStore?
        /// A Received payment's decision, due at `decidesAt` by the wall clock (Adyen's delay is
        /// real time, whatever the sandbox's clock) (Authorised when `decidesAuthorised`, else
        /// Refused): applied by the store's settling, exactly once whichever instance sees it due
        /// first, and its AUTHORISATION sent by that one.
        var decidesAt: Date?
        var decidesAuthorised: Bool?

        var storeKey: String { pspReference }
        var storeClaims: [String] { consumedGrant.map { [$0] } ?? [] }
        var storeIsOpen: Bool { decidesAt != nil }

        /// Applies the decision once it is due: true when it did.
        mutating func decide(now: Date) -> Bool {
            guard let due = decidesAt, due <= now else { return false }
            decidesAt = nil
            if decidesAuthorised == true {
                resultCode = .authorised
            } else {
                resultCode = .refused
                refusalReason = "Refused"
                refusalReasonCode = "2"
            }
            decidesAuthorised = nil
            return true
        }

        var response: AdyenPaymentResponse {
            AdyenPaymentResponse(
                pspReference: pspReference, resultCode: resultCode.rawValue, action: action, refusalReason: refusalReason,
                refusalReasonCode: refusalReasonCode, additionalData: additionalData, amount: amount, merchantReference: reference,
                paymentMethod: paymentMethod)
        }
    }

    /// An EXTENDED grant waiting for its payment's action to be completed before it is stored.
    struct PendingStore: Sendable, Codable, Equatable {
        let grantID: String
        let customerID: String
        let cashtag: String
        let shopperReference: String
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

    private let payments: ProviderStore<Payment>

    /// Who hears of Received payments decided by time, once the provider is registered.
    private final class Sink: Sendable {
        let handler = Mutex<(@Sendable ([Payment]) -> Void)?>(nil)

        func send(_ decided: [Payment]) {
            if !decided.isEmpty, let handler = handler.withLock({ $0 }) { handler(decided) }
        }
    }

    private let sink: Sink

    init(storage: any SandboxStorage) {
        let sink = Sink()
        self.sink = sink
        // Open (undecided Received) payments are few: every one is visited, its decision by the wall clock.
        payments = ProviderStore(
            "adyen.payments", in: storage,
            policy: StorePolicy(settle: { payment, _ in payment.decide(now: Date()) }, onSettled: { sink.send($0) }))
    }

    /// Where the payments time decides go from now on (their AUTHORISATION).
    func setSink(_ handler: @escaping @Sendable ([Payment]) -> Void) {
        sink.handler.withLock { $0 = handler }
    }

    /// Applies the decisions that are due (the sandbox's due-time worker).
    func applyDue(now: Date) async throws(SandboxStoreUnavailable) {
        try await payments.settle(at: StoreMoment(now: now))
    }

    /// How many payments it holds.
    public var count: Int { get async throws { try await payments.count() } }

    func payment(_ psp: String) async throws(SandboxStoreUnavailable) -> Payment? { try await payments.record(.key(psp)) }

    /// The payment `grantID` already paid, if any.
    func paymentUsing(grant grantID: String) async throws(SandboxStoreUnavailable) -> String? { try await payments.record(.claim(grantID))?.pspReference }

    enum AddOutcome {
        case added(Payment)
        case grantAlreadyUsed(by: String)
    }

    /// Keeps a payment; a payment that consumes a grant is refused when another consumed it
    /// first (in the same unit of work, so two racing requests cannot both pay).
    func add(_ payment: Payment, consumesGrant: Bool, now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> AddOutcome {
        let grant = consumesGrant ? payment.grantID : nil
        let outcome = try await payments.create(requiring: grant.map { [$0] } ?? [], at: StoreMoment(now: now, limits: limits)) { sequence in
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
    func update<T>(_ psp: String, _ change: (inout Payment) -> T) async throws(SandboxStoreUnavailable) -> T? {
        try await payments.update(.key(psp), change).value
    }

    func evictDue(now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) {
        try await payments.settle(at: StoreMoment(now: now, limits: limits))
    }

    /// Authorised payments, in the order they were made.
    public var paymentRows: [PaymentRow] {
        get async throws {
            try await payments.records().filter { $0.resultCode == .authorised }.map {
                PaymentRow(
                    pspReference: $0.pspReference, merchantReference: $0.reference, amount: $0.amount.value,
                    currency: $0.amount.currency, idempotencyKey: $0.idempotencyKey, resultCode: $0.resultCode.rawValue)
            }
        }
    }

    public var captureRows: [CaptureRow] { get async throws { try await payments.records().flatMap(\.captures) } }
}

extension AdyenPaymentStore.Payment {
    /// The page the shopper visits for a `RedirectShopper` payment, on the client-key host's path.
    static let redirectPagePath = "/checkoutshopper/checkoutPaymentRedirect"

    /// Gives a `RedirectShopper` payment its redirect action and the secret its page hands back.
    mutating func awaitRedirect(baseURL: String, returnUrl: String) {
        self.returnUrl = returnUrl
        let nonce = AdyenIDs.pspReference() + AdyenIDs.pspReference()
        redirectNonce = nonce
        action = AdyenPaymentResponse.Action(
            type: "redirect", url: "\(baseURL)\(Self.redirectPagePath)?redirectData=\(pspReference)", method: "GET",
            paymentMethodType: AdyenCashAppDetails.type)
    }

    /// The `redirectResult` the page hands back: opaque to the client (base64url of psp and secret).
    var redirectResult: String? {
        redirectNonce.map { Data("\(pspReference):\($0)".utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") }
    }

    /// The pspReference and secret of a `redirectResult` this sandbox made; nil for anything else.
    static func decodeRedirectResult(_ text: String) -> (psp: String, nonce: String)? {
        guard text.count <= 200 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let plain = String(data: data, encoding: .utf8) else { return nil }
        let parts = plain.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, !parts[1].isEmpty else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
