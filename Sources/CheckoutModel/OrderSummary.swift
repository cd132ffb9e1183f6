/// The total is zero or negative, which no provider can charge.
public struct NonPositiveTotalError: Error, Equatable, CustomStringConvertible {
    public let total: Money
    public var description: String {
        "the order total is \(total.formatted); a payment needs a total greater than zero: add items or remove a discount"
    }
}

/// One line of the summary shown to the shopper and sent to wallets.
public struct SummaryLine: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case item, discount, shipping, tax, total }
    public let kind: Kind
    public let label: String
    public let amount: Money
}

/// Items, then discounts (negative), shipping, tax; the LAST line is the total, labelled with the merchant.
public struct OrderSummary: Hashable, Sendable {
    public let lines: [SummaryLine]
    public let subtotal: Money
    public let discountTotal: Money
    public let shipping: Money
    public let tax: Money
    public let total: Money

    public init(cart: Cart, merchantName: String) throws(NonPositiveTotalError) {
        let currency = cart.currency
        var lines = cart.items.map {
            SummaryLine(kind: .item, label: $0.quantity > 1 ? "\($0.name) ×\($0.quantity)" : $0.name, amount: $0.lineTotal)
        }
        let subtotal = cart.items.map(\.lineTotal).sum(in: currency)
        var remaining = subtotal
        for discount in cart.discounts {
            let off = discount.amountOff(subtotal: remaining)
            remaining = remaining - off
            lines.append(SummaryLine(kind: .discount, label: discount.label, amount: -off))
        }
        let shipping = cart.selectedShipping?.amount ?? .zero(currency)
        if let method = cart.selectedShipping {
            lines.append(SummaryLine(kind: .shipping, label: method.label, amount: shipping))
        }
        let tax = cart.tax.map { remaining.portion(basisPoints: $0.basisPoints) } ?? .zero(currency)
        if let rate = cart.tax, !tax.isZero {
            lines.append(SummaryLine(kind: .tax, label: rate.label, amount: tax))
        }
        let total = remaining + shipping + tax
        guard total.isPositive else { throw NonPositiveTotalError(total: total) }
        lines.append(SummaryLine(kind: .total, label: merchantName, amount: total))
        self.lines = lines
        self.subtotal = subtotal
        self.discountTotal = subtotal - remaining
        self.shipping = shipping
        self.tax = tax
        self.total = total
    }
}
