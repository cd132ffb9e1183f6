import Foundation

/// Reads a catalog file of the plain shape (every bundled catalog) without JSONDecoder. Anything
/// else (an unknown or repeated key, an escape, a negative number, a fraction, a missing field)
/// gives nil, and JSONDecoder decides, errors and all. Tests and the Scenario fuzz target check
/// that whatever this reads, JSONDecoder reads the same.
enum CatalogFastReader {
    static func read(_ data: Data) -> CatalogFile? {
        data.withUnsafeBytes { raw in
            var reader = PlainJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            guard let file = reader.catalogFile(), reader.atEnd else { return nil }
            return file
        }
    }
}

extension PlainJSONReader {
    fileprivate mutating func catalogFile() -> CatalogFile? {
        var merchant: CatalogFile.Merchant?
        var items: [CatalogFile.Item]?
        var methods: [CatalogFile.Method]?
        var discounts: [CatalogFile.DiscountEntry]?
        var tax: CatalogFile.Tax?
        var defaultCart: CatalogFile.DefaultCart?
        var customer: SampleCustomerEntry?
        let read = object { name, reader in
            switch name {
            case "merchant": return reader.required(&merchant) { $0.merchant() }
            case "items": return reader.required(&items) { $0.array { $0.item() } }
            case "shipping_methods": return reader.required(&methods) { $0.array { $0.method() } }
            case "discounts": return reader.required(&discounts) { $0.array { $0.discount() } }
            case "tax": return reader.optional(&tax) { $0.tax() }
            case "default_cart": return reader.required(&defaultCart) { $0.defaultCart() }
            case "sample_customer": return reader.optional(&customer) { $0.customer() }
            default: return false
            }
        }
        guard read, let merchant, let items, let methods, let discounts, let defaultCart else { return nil }
        return CatalogFile(
            merchant: merchant, items: items, shippingMethods: methods, discounts: discounts, tax: tax, defaultCart: defaultCart,
            sampleCustomer: customer)
    }

    /// Reads a value that must be there (not null); false when it does not read.
    private mutating func required<Value>(_ value: inout Value?, _ read: (inout PlainJSONReader) -> Value?) -> Bool {
        value = read(&self)
        return value != nil
    }

    private mutating func merchant() -> CatalogFile.Merchant? {
        var name: String?
        var currency: Currency?
        let read = object { key, reader in
            switch key {
            case "name": reader.required(&name) { $0.string() }
            case "currency": reader.required(&currency) { $0.string().flatMap(Currency.withCode) }
            default: false
            }
        }
        guard read, let name, let currency else { return nil }
        return CatalogFile.Merchant(name: name, currency: currency)
    }

    private mutating func item() -> CatalogFile.Item? {
        var fields = StringFields()
        var weight: Int?
        let read = object { key, reader in
            switch key {
            case "sku", "name", "unit_price": return fields.read(key, &reader)
            case "weight_grams": return reader.optional(&weight) { $0.integer() }
            default: return false
            }
        }
        guard read, let sku = fields["sku"], let name = fields["name"], let price = fields["unit_price"] else { return nil }
        return CatalogFile.Item(sku: sku, name: name, unitPrice: price, weightGrams: weight)
    }

    private mutating func method() -> CatalogFile.Method? {
        var fields = StringFields()
        let read = object { key, reader in
            ["id", "label", "detail", "amount"].contains(key) && fields.read(key, &reader)
        }
        guard read, let id = fields["id"], let label = fields["label"], let detail = fields["detail"], let amount = fields["amount"]
        else { return nil }
        return CatalogFile.Method(id: id, label: label, detail: detail, amount: amount)
    }

    private mutating func discount() -> CatalogFile.DiscountEntry? {
        var fields = StringFields()
        var amountOff: String?
        var basisPoints: Int?
        let read = object { key, reader in
            switch key {
            case "id", "label": return fields.read(key, &reader)
            case "amount_off": return reader.optional(&amountOff) { $0.string() }
            case "percent_off_basis_points": return reader.optional(&basisPoints) { $0.integer() }
            default: return false
            }
        }
        guard read, let id = fields["id"], let label = fields["label"] else { return nil }
        return CatalogFile.DiscountEntry(id: id, label: label, amountOff: amountOff, percentOffBasisPoints: basisPoints)
    }

    private mutating func tax() -> CatalogFile.Tax? {
        textAndNumber("label", "rate_basis_points").map { CatalogFile.Tax(label: $0, rateBasisPoints: $1) }
    }

    private mutating func defaultCart() -> CatalogFile.DefaultCart? {
        var lines: [CatalogFile.DefaultCart.Line]?
        var discounts: [String]?
        var shipping: String?
        let read = object { key, reader in
            switch key {
            case "items": return reader.required(&lines) { $0.array { $0.cartLine() } }
            case "discounts": return reader.optional(&discounts) { $0.array { $0.string() } }
            case "shipping": return reader.optional(&shipping) { $0.string() }
            default: return false
            }
        }
        guard read, let lines else { return nil }
        return CatalogFile.DefaultCart(items: lines, discounts: discounts, shipping: shipping)
    }

    private mutating func cartLine() -> CatalogFile.DefaultCart.Line? {
        textAndNumber("sku", "quantity").map { CatalogFile.DefaultCart.Line(sku: $0, quantity: $1) }
    }

    /// `{"<textKey>": "…", "<numberKey>": n}`, both required: a tax's and a cart line's shape.
    private mutating func textAndNumber(_ textKey: String, _ numberKey: String) -> (String, Int)? {
        var text: String?
        var number: Int?
        let read = object { key, reader in
            switch key {
            case textKey: reader.required(&text) { $0.string() }
            case numberKey: reader.required(&number) { $0.integer() }
            default: false
            }
        }
        guard read, let text, let number else { return nil }
        return (text, number)
    }

    private mutating func customer() -> SampleCustomerEntry? {
        var fields = StringFields()
        var addresses: [SampleCustomerEntry.Address]?
        var cards: [SampleCustomerEntry.Card]?
        let read = object { key, reader in
            switch key {
            case "name", "email", "phone": return fields.read(key, &reader)
            case "addresses": return reader.optional(&addresses) { $0.array { $0.address() } }
            case "wallet_cards": return reader.optional(&cards) { $0.array { $0.card() } }
            default: return false
            }
        }
        guard read, let name = fields["name"], let email = fields["email"], let phone = fields["phone"] else { return nil }
        return SampleCustomerEntry(name: name, email: email, phone: phone, addresses: addresses, savedCards: cards)
    }

    private mutating func address() -> SampleCustomerEntry.Address? {
        var fields = StringFields()
        var name: String?
        let read = object { key, reader in
            switch key {
            case "label", "street", "city", "state", "zip", "country": return fields.read(key, &reader)
            case "name": return reader.optional(&name) { $0.string() }
            default: return false
            }
        }
        guard read, let label = fields["label"], let street = fields["street"], let city = fields["city"],
            let state = fields["state"], let zip = fields["zip"], let country = fields["country"]
        else { return nil }
        return SampleCustomerEntry.Address(label: label, name: name, street: street, city: city, state: state, zip: zip, country: country)
    }

    private mutating func card() -> SampleCustomerEntry.Card? {
        var fields = StringFields()
        var label: String?
        let read = object { key, reader in
            switch key {
            case "network", "last4": return fields.read(key, &reader)
            case "label": return reader.optional(&label) { $0.string() }
            default: return false
            }
        }
        guard read, let network = fields["network"], let last4 = fields["last4"] else { return nil }
        return SampleCustomerEntry.Card(network: network, last4: last4, label: label)
    }
}

/// An object's required string fields, by key, as read.
private struct StringFields {
    private var values: [(key: String, value: String)] = []

    subscript(key: String) -> String? { values.first { $0.key == key }?.value }

    /// Reads the string for `key`; false when the value is not a plain string.
    mutating func read(_ key: String, _ reader: inout PlainJSONReader) -> Bool {
        guard let value = reader.string() else { return false }
        values.append((key, value))
        return true
    }
}
