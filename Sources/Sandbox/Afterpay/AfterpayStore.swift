import Foundation
import ProviderWire

/// Afterpay checkouts by token, what was validated for them, and their captures.
public final class AfterpayStore: Sendable {
    struct Checkout: StoredRecord, Codable, Equatable {
        let token: String
        let request: AfterpayCheckoutRequest
        let cents: Int
        let currency: String
        let expires: Date
        var validated: Validation?
        var payment: AfterpayPayment?
        var captureRequests = 0
        var captures = 0
        /// sign-payment refused this checkout (the sign-failure magic amounts).
        var signFailed = false

        var storeKey: String { token }
    }

    /// The grant validate-payment accepted for a checkout, and its customer.
    struct Validation: Codable, Equatable {
        let grantID: String
        let customerID: String
    }

    /// One row of `GET /sandbox/ledger`.
    public struct LedgerEntry: Codable, Hashable, Sendable {
        public let token: String
        /// The merchant's own reference for the order, to find a checkout by.
        public let merchantReference: String?
        public let amount: AfterpayMoney
        public let paymentID: String?
        public let status: String?
        /// Times money actually moved: never more than 1.
        public let captures: Int
        /// Capture calls received, repeats included.
        public let captureRequests: Int

        enum CodingKeys: String, CodingKey {
            case token, amount, status, captures
            case merchantReference = "merchant_reference"
            case paymentID = "payment_id"
            case captureRequests = "capture_requests"
        }
    }

    private let checkouts: ProviderStore<Checkout>

    init(storage: any SandboxStorage) {
        checkouts = ProviderStore("afterpay.checkouts", in: storage)
    }

    /// Keeps a new checkout, forgetting the oldest when the store is full.
    func add(_ checkout: Checkout, now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) {
        _ = try await checkouts.create(at: StoreMoment(now: now, limits: limits)) { _ in checkout }
    }

    /// Forgets checkouts past the retention age: they answer as unknown tokens from then on.
    func evictDue(now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) {
        try await checkouts.settle(at: StoreMoment(now: now, limits: limits))
    }

    /// How many checkouts it holds.
    public var count: Int { get async throws { try await checkouts.count() } }

    func checkout(token: String) async throws(SandboxStoreUnavailable) -> Checkout? { try await checkouts.record(.key(token)) }

    /// Whether sign-payment already failed for a checkout of this merchant reference (a
    /// checkout with no reference is judged by its own token).
    func signFailedBefore(_ checkout: Checkout) async throws(SandboxStoreUnavailable) -> Bool {
        guard let reference = checkout.request.merchantReference else { return checkout.signFailed }
        return try await checkouts.first { $0.signFailed && $0.request.merchantReference == reference } != nil
    }

    func payment(id: String) async throws(SandboxStoreUnavailable) -> AfterpayPayment? { try await checkouts.first { $0.payment?.id == id }?.payment }

    func update(token: String, _ change: (inout Checkout) -> Void) async throws(SandboxStoreUnavailable) -> Checkout? {
        try await checkouts.update(.key(token)) { checkout in
            change(&checkout)
            return checkout
        }.value
    }

    /// Every capture that moved money, once each (`captures` of them per token, so a token
    /// captured twice is charged twice here), in token order.
    func charges(provider: String) async throws(SandboxStoreUnavailable) -> [SandboxCharge] {
        try await checkouts.records().filter { $0.captures > 0 }.sorted { $0.token < $1.token }.flatMap { checkout in
            Array(
                repeating: SandboxCharge(
                    provider: provider, id: checkout.token, reference: checkout.request.merchantReference, amount: checkout.cents,
                    currency: checkout.currency),
                count: checkout.captures)
        }
    }

    public var ledger: [LedgerEntry] {
        get async throws {
            try await checkouts.records().filter { $0.captureRequests > 0 }.sorted { $0.token < $1.token }.map {
                LedgerEntry(
                    token: $0.token, merchantReference: $0.request.merchantReference,
                    amount: $0.request.amount ?? AfterpayMoney(amount: "0.00", currency: $0.currency), paymentID: $0.payment?.id,
                    status: $0.payment?.status, captures: $0.captures, captureRequests: $0.captureRequests)
            }
        }
    }
}
