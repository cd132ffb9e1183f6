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

    private let checkouts = Mutex<[String: Checkout]>([:])

    public init() {}

    func add(_ checkout: Checkout) { checkouts.withLock { $0[checkout.token] = checkout } }

    func checkout(token: String) -> Checkout? { checkouts.withLock { $0[token] } }

    func payment(id: String) -> AfterpayPayment? { checkouts.withLock { $0.values.lazy.compactMap(\.payment).first { $0.id == id } } }

    func update(token: String, _ change: (inout Checkout) -> Void) -> Checkout? {
        checkouts.withLock { all in
            guard var checkout = all[token] else { return nil }
            change(&checkout)
            all[token] = checkout
            return checkout
        }
    }

    public var ledger: [LedgerEntry] {
        checkouts.withLock { all in
            all.values.filter { $0.captureRequests > 0 }.sorted { $0.token < $1.token }.map {
                LedgerEntry(
                    token: $0.token, merchantReference: $0.request.merchantReference, amount: $0.request.amount ?? AfterpayMoney(amount: "0.00", currency: $0.currency),
                    paymentID: $0.payment?.id, status: $0.payment?.status, captures: $0.captures,
                    captureRequests: $0.captureRequests)
            }
        }
    }
}
