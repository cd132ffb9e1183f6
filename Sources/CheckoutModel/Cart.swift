/// What goes wrong when the cart is changed.
public enum CartError: Error, Equatable, CustomStringConvertible {
    case unknownSKU(String)
    case unknownShippingMethod(String)
    case lastItemCannotBeRemoved(sku: String)
    case negativeQuantity(sku: String, quantity: Int)

    public var description: String {
        switch self {
        case .unknownSKU(let sku): "no item with SKU \(sku) in the cart"
        case .unknownShippingMethod(let id): "no shipping method \"\(id)\""
        case .lastItemCannotBeRemoved(let sku): "\(sku) is the last item; a cart cannot be empty"
        case .negativeQuantity(let sku, let quantity): "quantity \(quantity) for \(sku) is below zero"
        }
    }
}

/// The shopper's cart: line items, discounts, the shipping choice and tax, in one currency.
public struct Cart: Hashable, Sendable {
    public let currency: Currency
    public private(set) var items: [LineItem]
    public var discounts: [Discount]
    public let shippingMethods: [ShippingMethod]
    public private(set) var selectedShippingID: String?
    public var tax: TaxRate?

    public init(
        currency: Currency,
        items: [LineItem],
        discounts: [Discount] = [],
        shippingMethods: [ShippingMethod] = [],
        selectedShippingID: String? = nil,
        tax: TaxRate? = nil
    ) {
        self.currency = currency
        self.items = items
        self.discounts = discounts
        self.shippingMethods = shippingMethods
        self.selectedShippingID = selectedShippingID ?? shippingMethods.first?.id
        self.tax = tax
    }

    /// The parcel's weight: every line's quantity × unit weight; saturates at Int.max, never traps.
    public var weightGrams: Int {
        items.reduce(0) { total, item in
            let (sum, overflow) = total.addingReportingOverflow(item.lineWeightGrams)
            return overflow ? .max : sum
        }
    }

    public var selectedShipping: ShippingMethod? {
        shippingMethods.first { $0.id == selectedShippingID }
    }

    public mutating func selectShipping(id: String) throws(CartError) {
        guard shippingMethods.contains(where: { $0.id == id }) else { throw .unknownShippingMethod(id) }
        selectedShippingID = id
    }

    /// Sets a line's quantity; 0 removes the line, except the last one.
    public mutating func setQuantity(_ quantity: Int, forSKU sku: String) throws(CartError) {
        guard let index = items.firstIndex(where: { $0.sku == sku }) else { throw .unknownSKU(sku) }
        guard quantity >= 0 else { throw .negativeQuantity(sku: sku, quantity: quantity) }
        if quantity == 0 {
            guard items.count > 1 else { throw .lastItemCannotBeRemoved(sku: sku) }
            items.remove(at: index)
        } else {
            items[index].quantity = quantity
        }
    }

    /// Adds `item`, or raises the quantity of the line with the same SKU.
    public mutating func add(_ item: LineItem) {
        if let index = items.firstIndex(where: { $0.sku == item.sku }) {
            // A quantity past Int.max is not a cart anyone has: it stays as it was rather than trapping.
            let (sum, overflow) = items[index].quantity.addingReportingOverflow(item.quantity)
            if !overflow { items[index].quantity = sum }
        } else {
            items.append(item)
        }
    }
}
