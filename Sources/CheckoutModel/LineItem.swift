/// One product line in the cart.
public struct LineItem: Hashable, Sendable {
    public let sku: String
    public let name: String
    public let unitPrice: Money
    public var quantity: Int
    /// One unit's shipping weight from the catalog; 0 for a weightless line (a gift card, or an
    /// item written inline in a scenario).
    public let weightGrams: Int

    public init(sku: String, name: String, unitPrice: Money, quantity: Int, weightGrams: Int = 0) {
        self.sku = sku
        self.name = name
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.weightGrams = weightGrams
    }

    public var lineTotal: Money {
        get throws(MoneyError) { try unitPrice * quantity }
    }

    /// The line's weight, quantity × unit weight; saturates at Int.max rather than trapping, and a
    /// negative weight or quantity counts as nothing.
    public var lineWeightGrams: Int {
        let (product, overflow) = max(weightGrams, 0).multipliedReportingOverflow(by: max(quantity, 0))
        return overflow ? .max : product
    }
}

/// A discount on the merchandise subtotal: a fixed amount or a percentage in basis points.
public struct Discount: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case amountOff(Money)
        case percentOff(basisPoints: Int)
    }

    public let id: String
    public let label: String
    public let kind: Kind

    public init(id: String, label: String, kind: Kind) {
        self.id = id
        self.label = label
        self.kind = kind
    }

    /// The positive amount taken off `subtotal`; never more than the subtotal itself.
    public func amountOff(subtotal: Money) throws(MoneyError) -> Money {
        let off: Money
        switch kind {
        case .amountOff(let amount): off = amount
        case .percentOff(let basisPoints): off = try subtotal.portion(basisPoints: basisPoints)
        }
        return Money(minorUnits: min(off.minorUnits, max(subtotal.minorUnits, 0)), currency: subtotal.currency)
    }
}

/// A way to ship the order, as offered in the shipping picker.
public struct ShippingMethod: Hashable, Sendable, Identifiable {
    public let id: String
    public let label: String
    public let detail: String
    public let amount: Money

    public init(id: String, label: String, detail: String, amount: Money) {
        self.id = id
        self.label = label
        self.detail = detail
        self.amount = amount
    }
}

/// Sales tax on the discounted merchandise (shipping is not taxed).
public struct TaxRate: Hashable, Sendable {
    public let label: String
    public let basisPoints: Int

    public init(label: String, basisPoints: Int) {
        self.label = label
        self.basisPoints = basisPoints
    }
}
