/// A cart whose total no provider can charge.
public enum OrderTotalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Zero or negative.
    case notPositive(Money)
    /// Beyond what 64-bit minor units hold.
    case tooLarge(MoneyError)

    public var description: String {
        switch self {
        case .notPositive(let total):
            "the order total is \(total.formatted); a payment needs a total greater than zero: add items or remove a discount"
        case .tooLarge(let error):
            "the order total cannot be computed: \(error); lower the quantities or prices"
        }
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

    public init(cart: Cart, merchantName: String) throws(OrderTotalError) {
        do throws(MoneyError) {
            try self.init(computing: cart, merchantName: merchantName)
        } catch {
            throw .tooLarge(error)
        }
        guard total.isPositive else { throw .notPositive(total) }
    }

    private init(computing cart: Cart, merchantName: String) throws(MoneyError) {
        let currency = cart.currency
        var lines: [SummaryLine] = []
        for item in cart.items {
            lines.append(SummaryLine(kind: .item, label: item.quantity > 1 ? "\(item.name) ×\(item.quantity)" : item.name, amount: try item.lineTotal))
        }
        let subtotal = try lines.map(\.amount).sum(in: currency)
        var remaining = subtotal
        for discount in cart.discounts {
            let off = try discount.amountOff(subtotal: remaining)
            remaining = try remaining - off
            lines.append(SummaryLine(kind: .discount, label: discount.label, amount: try -off))
        }
        let shipping = cart.selectedShipping?.amount ?? .zero(currency)
        if let method = cart.selectedShipping {
            lines.append(SummaryLine(kind: .shipping, label: method.label, amount: shipping))
        }
        let tax = try cart.tax.map { rate throws(MoneyError) in try remaining.portion(basisPoints: rate.basisPoints) } ?? .zero(currency)
        if let rate = cart.tax, !tax.isZero {
            lines.append(SummaryLine(kind: .tax, label: rate.label, amount: tax))
        }
        let total = try remaining + shipping + tax
        lines.append(SummaryLine(kind: .total, label: merchantName, amount: total))
        self.lines = lines
        self.subtotal = subtotal
        self.discountTotal = try subtotal - remaining
        self.shipping = shipping
        self.tax = tax
        self.total = total
    }
}
