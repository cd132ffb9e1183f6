import CheckoutModel
import Foundation

/// What is being paid for, the same whichever front end or provider: the cart, its summary,
/// the amount to charge, and the merchant's reference and metadata.
public struct PaymentOrder: Hashable, Sendable {
    public var cart: Cart
    public var summary: OrderSummary
    /// Usually the summary's total; a scenario may charge a fixed amount (sandbox magic values).
    public var amount: Money
    public var merchantName: String
    /// The merchant's reference; nil lets the attempt's generated reference stand.
    public var reference: String?
    public var metadata: [String: String]
    /// The provider's options for this payment alone, by flag (the screen's stored method or
    /// store toggle: `stored-payment-method`, `store`); they win over the session's.
    public var providerOptions: [String: String]

    public init(
        cart: Cart, summary: OrderSummary, amount: Money? = nil, merchantName: String, reference: String? = nil,
        metadata: [String: String] = [:], providerOptions: [String: String] = [:]
    ) {
        self.cart = cart
        self.summary = summary
        self.amount = amount ?? summary.total
        self.merchantName = merchantName
        self.reference = reference
        self.metadata = metadata
        self.providerOptions = providerOptions
    }

    /// The order for a cart: a scenario's fixed amount, reference and metadata when given, and
    /// the number of items as `cart_items` metadata.
    public static func forCart(
        _ cart: Cart, merchantName: String, amount: Money? = nil, reference: String? = nil, metadata: [String: String] = [:]
    ) throws(OrderTotalError) -> PaymentOrder {
        let summary = try OrderSummary(cart: cart, merchantName: merchantName)
        let items = cart.items.reduce(0) { $0 + $1.quantity }
        return PaymentOrder(
            cart: cart, summary: summary, amount: amount, merchantName: merchantName, reference: reference,
            metadata: metadata.merging(["cart_items": String(items)]) { $1 })
    }
}

/// The identifiers of one attempt, made when the user pays: its number in the session (to
/// drop late results of an abandoned attempt), the idempotency key every retry of its create
/// reuses, and the merchant reference.
public struct AttemptIdentifiers: Hashable, Sendable {
    public var number: Int
    public var idempotencyKey: String
    public var reference: String

    public init(number: Int, idempotencyKey: String, reference: String) {
        self.number = number
        self.idempotencyKey = idempotencyKey
        self.reference = reference
    }

    /// Fresh random identifiers for attempt `number`.
    public static func make(number: Int) -> AttemptIdentifiers {
        AttemptIdentifiers(
            number: number, idempotencyKey: UUID().uuidString.lowercased(),
            reference: "tc-" + UUID().uuidString.prefix(8).lowercased())
    }
}

/// What the coordinator needs to know of a provider: its id, whether it has steps before its
/// request exists, and whether an approval is settled (validated, captured) afterwards.
public struct ProviderPlan: Hashable, Sendable {
    public var id: String
    public var prepares: Bool
    public var settles: Bool
    /// The customer authorizes here, at the terminal, on the provider's own sheet (the wallet):
    /// a created attempt opens it at once, and the sheet's outcome decides the attempt.
    public var authorizesAtTerminal: Bool

    public init(id: String, prepares: Bool = false, settles: Bool = false, authorizesAtTerminal: Bool = false) {
        self.id = id
        self.prepares = prepares
        self.settles = settles
        self.authorizesAtTerminal = authorizesAtTerminal
    }
}
