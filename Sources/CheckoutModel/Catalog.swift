import Foundation

/// The merchant's catalog: what can be bought, how it ships, which discounts exist, and the
/// cart a checkout starts with.
public struct Catalog: Sendable, Hashable {
    public struct Product: Sendable, Hashable {
        public let sku: String
        public let name: String
        public let unitPrice: Money
        /// One unit's shipping weight; 0 when the catalog gives none (weightless, like a gift card).
        public let weightGrams: Int
    }

    public let merchantName: String
    public let currency: Currency
    public let products: [Product]
    public let shippingMethods: [ShippingMethod]
    public let discounts: [Discount]
    public let tax: TaxRate?
    public let defaultCart: Cart
    /// Who the wallet sheet's saved addresses and cards belong to, when the catalog names one.
    public let sampleCustomer: SampleCustomer?

    public func product(sku: String) -> Product? { products.first { $0.sku == sku } }

    /// A cart line for `sku` from this catalog.
    public func lineItem(sku: String, quantity: Int) throws(CartError) -> LineItem {
        guard let product = product(sku: sku) else { throw .unknownSKU(sku) }
        return LineItem(
            sku: sku, name: product.name, unitPrice: product.unitPrice, quantity: quantity, weightGrams: product.weightGrams)
    }
}

/// A catalog file that cannot be used, with the place in it that is wrong.
public struct CatalogError: Error, CustomStringConvertible, Equatable {
    public let field: String
    public let problem: String
    public var description: String { "catalog: \(field): \(problem)" }
}

extension Catalog {
    /// Decodes the catalog JSON (see Resources/catalog.json) and checks it is usable.
    public init(json: Data) throws(CatalogError) {
        // The plain shape (every bundled catalog) without JSONDecoder: a third of the screen's
        // start-up instructions went to decoding the catalog. Anything else goes the long way.
        if let file = CatalogFastReader.read(json) {
            try self.init(file: file)
        } else {
            try self.init(decoding: json)
        }
    }

    /// The same through JSONDecoder alone: the fast reader's reference, and every error's source.
    init(decoding json: Data) throws(CatalogError) {
        let file: CatalogFile
        do {
            file = try JSONDecoder().decode(CatalogFile.self, from: json)
        } catch let error as DecodingError {
            throw CatalogError(field: error.fieldPath, problem: error.problem)
        } catch {
            throw CatalogError(field: "(file)", problem: "\(error)")
        }
        try self.init(file: file)
    }

    private init(file: CatalogFile) throws(CatalogError) {
        let currency = file.merchant.currency
        func money(_ text: String, _ field: String) throws(CatalogError) -> Money {
            do { return try Money(decimal: text, currency: currency) } catch {
                throw CatalogError(field: field, problem: error.description)
            }
        }
        var products: [Product] = []
        for (index, item) in file.items.enumerated() {
            if let grams = item.weightGrams, !CatalogFile.Item.weightRange.contains(grams) {
                throw CatalogError(field: "items[\(index)].weight_grams", problem: "\(CatalogFile.Item.weightRule), not \(grams)")
            }
            products.append(Product(
                sku: item.sku, name: item.name, unitPrice: try money(item.unitPrice, "items[\(index)].unit_price"),
                weightGrams: item.weightGrams ?? 0))
        }
        var methods: [ShippingMethod] = []
        for (index, method) in file.shippingMethods.enumerated() {
            methods.append(ShippingMethod(
                id: method.id, label: method.label, detail: method.detail,
                amount: try money(method.amount, "shipping_methods[\(index)].amount")))
        }
        var discounts: [Discount] = []
        for (index, discount) in file.discounts.enumerated() {
            let kind: Discount.Kind
            switch (discount.amountOff, discount.percentOffBasisPoints) {
            case (let amount?, nil): kind = .amountOff(try money(amount, "discounts[\(index)].amount_off"))
            case (nil, let basisPoints?): kind = .percentOff(basisPoints: basisPoints)
            default:
                throw CatalogError(field: "discounts[\(index)]", problem: "give exactly one of amount_off or percent_off_basis_points")
            }
            discounts.append(Discount(id: discount.id, label: discount.label, kind: kind))
        }
        let tax = file.tax.map { TaxRate(label: $0.label, basisPoints: $0.rateBasisPoints) }
        let customer = try file.sampleCustomer?.checked(at: "sample_customer")
        let base = Catalog(
            merchantName: file.merchant.name, currency: currency, products: products,
            shippingMethods: methods, discounts: discounts, tax: tax,
            defaultCart: Cart(currency: currency, items: []), sampleCustomer: customer)
        var items: [LineItem] = []
        for (index, line) in file.defaultCart.items.enumerated() {
            guard line.quantity > 0 else {
                throw CatalogError(field: "default_cart.items[\(index)].quantity", problem: "must be at least 1")
            }
            do { items.append(try base.lineItem(sku: line.sku, quantity: line.quantity)) } catch {
                throw CatalogError(field: "default_cart.items[\(index)].sku", problem: error.description)
            }
        }
        guard !items.isEmpty else { throw CatalogError(field: "default_cart.items", problem: "needs at least one item") }
        var chosen: [Discount] = []
        for id in file.defaultCart.discounts ?? [] {
            guard let discount = discounts.first(where: { $0.id == id }) else {
                throw CatalogError(field: "default_cart.discounts", problem: "no discount with id \(id)")
            }
            chosen.append(discount)
        }
        if let shipping = file.defaultCart.shipping, !methods.contains(where: { $0.id == shipping }) {
            throw CatalogError(field: "default_cart.shipping", problem: "no shipping method \(shipping)")
        }
        self.init(
            merchantName: base.merchantName, currency: currency, products: products, shippingMethods: methods,
            discounts: discounts, tax: tax,
            defaultCart: Cart(
                currency: currency, items: items, discounts: chosen, shippingMethods: methods,
                selectedShippingID: file.defaultCart.shipping, tax: tax),
            sampleCustomer: customer)
    }
}

/// The catalog file as written; `Catalog` checks it.
struct CatalogFile: Decodable {
    struct Merchant: Decodable { let name: String; let currency: Currency }
    struct Item: Decodable { let sku: String; let name: String; let unitPrice: String; let weightGrams: Int? }
    struct Method: Decodable { let id: String; let label: String; let detail: String; let amount: String }
    struct DiscountEntry: Decodable {
        let id: String; let label: String; let amountOff: String?; let percentOffBasisPoints: Int?
    }
    struct Tax: Decodable { let label: String; let rateBasisPoints: Int }
    struct DefaultCart: Decodable {
        struct Line: Decodable { let sku: String; let quantity: Int }
        let items: [Line]; let discounts: [String]?; let shipping: String?
    }
    let merchant: Merchant
    let items: [Item]
    let shippingMethods: [Method]
    let discounts: [DiscountEntry]
    let tax: Tax?
    let defaultCart: DefaultCart
    let sampleCustomer: SampleCustomerEntry?

    enum CodingKeys: String, CodingKey {
        case merchant, items, discounts, tax
        case shippingMethods = "shipping_methods"
        case defaultCart = "default_cart"
        case sampleCustomer = "sample_customer"
    }
}

extension CatalogFile.Item {
    enum CodingKeys: String, CodingKey { case sku, name, unitPrice = "unit_price", weightGrams = "weight_grams" }

    /// The sandbox's rates take a parcel of 1 g to 70 kg; a weightless item leaves the field out.
    static let weightRange = 1...70_000
    static let weightRule = "must be a whole number of grams from 1 to 70000 (leave it out for a weightless item)"

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sku = try container.decode(String.self, forKey: .sku)
        name = try container.decode(String.self, forKey: .name)
        unitPrice = try container.decode(String.self, forKey: .unitPrice)
        // Text, a fraction or a huge number: say the allowed range, at this field. (Linux's decoder
        // throws a fraction as a private error that would otherwise surface as "not valid JSON".)
        do { weightGrams = try container.decodeIfPresent(Int.self, forKey: .weightGrams) } catch {
            throw DecodingError.dataCorruptedError(forKey: .weightGrams, in: container, debugDescription: Self.weightRule)
        }
    }
}

extension CatalogFile.DiscountEntry {
    enum CodingKeys: String, CodingKey {
        case id, label
        case amountOff = "amount_off"
        case percentOffBasisPoints = "percent_off_basis_points"
    }
}

extension CatalogFile.Tax {
    enum CodingKeys: String, CodingKey { case label, rateBasisPoints = "rate_basis_points" }
}

extension DecodingError {
    /// The dotted path of the field a decoding error is about, e.g. "items[2].unit_price".
    public var fieldPath: String {
        let path: [any CodingKey]
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
        @unknown default:
            path = []
        }
        guard !path.isEmpty else { return "(file)" }
        return path.reduce(into: "") { text, key in
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
    }

    /// What is wrong, in words.
    public var problem: String {
        switch self {
        case .typeMismatch(let type, _): "expected \(Self.words(for: type))"
        case .valueNotFound(let type, _): "missing: expected \(Self.words(for: type))"
        case .keyNotFound: "required field is missing"
        case .dataCorrupted(let context):
            context.underlyingError.map { "not valid JSON (\($0.localizedDescription))" } ?? context.debugDescription
        @unknown default: "\(self)"
        }
    }

    /// A JSON value of `type`, in words rather than Swift's type names.
    static func words(for type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "a whole number from \(Int64.min) to \(Int64.max)"
        case is Int32.Type: "a whole number from \(Int32.min) to \(Int32.max)"
        case is Double.Type, is Float.Type: "a number"
        case is String.Type: "text (a JSON string)"
        case is Bool.Type: "true or false"
        default:
            String(describing: type).hasPrefix("Array") ? "a list (a JSON array)"
                : String(describing: type).hasPrefix("Dictionary") ? "an object" : "an object"
        }
    }
}
