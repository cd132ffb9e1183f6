import Foundation
import ProviderWire
import Synchronization

/// Afterpay checkouts by token, what was validated for them, and their captures.
public final class AfterpayStore: Sendable {
    struct Checkout: Sendable {
        let token: String
        let request: AfterpayCheckoutRequest
        let cents: Int
        let currency: String
        let expires: Date
        var validated: (grantID: String, customerID: String)?
        var payment: AfterpayPayment?
        var captureRequests = 0
        var captures = 0
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

    private struct State: Sendable {
        var checkouts: [String: Checkout] = [:]
        var age = RetentionQueue()

        mutating func evict(now: Date, limits: SandboxLimits, capacity: Int) {
            for token in age.evict(now: now, retention: limits.requestRetention, capacity: capacity) {
                checkouts.removeValue(forKey: token)
            }
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// Keeps a new checkout, forgetting the oldest when the store is full.
    func add(_ checkout: Checkout, now: Date, limits: SandboxLimits) {
        state.withLock { state in
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests - 1)
            state.checkouts[checkout.token] = checkout
            state.age.append(checkout.token, createdAt: now)
        }
    }

    /// Forgets checkouts past the retention age: they answer as unknown tokens from then on.
    func evictDue(now: Date, limits: SandboxLimits) {
        state.withLock { $0.evict(now: now, limits: limits, capacity: limits.maxStoredRequests) }
    }

    /// How many checkouts it holds.
    public var count: Int { state.withLock { $0.checkouts.count } }

    func checkout(token: String) -> Checkout? { state.withLock { $0.checkouts[token] } }

    func payment(id: String) -> AfterpayPayment? { state.withLock { $0.checkouts.values.lazy.compactMap(\.payment).first { $0.id == id } } }

    func update(token: String, _ change: (inout Checkout) -> Void) -> Checkout? {
        state.withLock { state in
            guard var checkout = state.checkouts[token] else { return nil }
            change(&checkout)
            state.checkouts[token] = checkout
            return checkout
        }
    }

    /// Every capture that moved money, once each (`captures` of them per token, so a token
    /// captured twice is charged twice here), in token order.
    func charges(provider: String) -> [SandboxCharge] {
        state.withLock { state in
            state.checkouts.values.filter { $0.captures > 0 }.sorted { $0.token < $1.token }.flatMap { checkout in
                Array(
                    repeating: SandboxCharge(
                        provider: provider, id: checkout.token, reference: checkout.request.merchantReference, amount: checkout.cents,
                        currency: checkout.currency),
                    count: checkout.captures)
            }
        }
    }

    public var ledger: [LedgerEntry] {
        state.withLock { state in
            state.checkouts.values.filter { $0.captureRequests > 0 }.sorted { $0.token < $1.token }.map {
                LedgerEntry(
                    token: $0.token, merchantReference: $0.request.merchantReference, amount: $0.request.amount ?? AfterpayMoney(amount: "0.00", currency: $0.currency),
                    paymentID: $0.payment?.id, status: $0.payment?.status, captures: $0.captures,
                    captureRequests: $0.captureRequests)
            }
        }
    }
}
