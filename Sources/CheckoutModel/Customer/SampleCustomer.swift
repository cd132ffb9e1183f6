/// The shopper the wallet sheet pretends to be: contact details, saved addresses and cards.
/// Comes from the catalog's `sample_customer`; a scenario or flags can replace parts of it.
public struct SampleCustomer: Hashable, Sendable {
    public let name: String
    public let email: String
    public let phone: String
    public let addresses: [ShippingAddress]
    public let savedCards: [SavedCard]

    public init(name: String, email: String, phone: String, addresses: [ShippingAddress], savedCards: [SavedCard]) {
        self.name = name
        self.email = email
        self.phone = phone
        self.addresses = addresses
        self.savedCards = savedCards
    }
}

/// `sample_customer` as a catalog file writes it; `checked(at:)` turns it into a SampleCustomer.
struct SampleCustomerEntry: Decodable {
    struct Address: Decodable {
        let label: String
        /// Defaults to the customer's name.
        let name: String?
        let street: String
        let city: String
        let state: String
        let zip: String
        let country: String
    }

    struct Card: Decodable {
        let network: String
        let last4: String
        let label: String?
    }

    let name: String
    let email: String
    let phone: String
    let addresses: [Address]?
    let savedCards: [Card]?

    enum CodingKeys: String, CodingKey {
        case name, email, phone, addresses
        case savedCards = "wallet_cards"
    }

    /// The customer, every field checked where it enters; errors name the field under `path`.
    func checked(at path: String) throws(CatalogError) -> SampleCustomer {
        for (key, value) in [("name", name), ("email", email), ("phone", phone)] {
            try Self.checkText(value, "\(path).\(key)")
        }
        guard email.contains("@") else {
            throw CatalogError(field: "\(path).email", problem: "must be an email address (e.g. jamie@example.com)")
        }
        return SampleCustomer(
            name: name, email: email, phone: phone,
            addresses: try checkedAddresses(at: "\(path).addresses"), savedCards: try checkedCards(at: "\(path).wallet_cards"))
    }

    private func checkedAddresses(at path: String) throws(CatalogError) -> [ShippingAddress] {
        var result: [ShippingAddress] = []
        for (index, entry) in (addresses ?? []).enumerated() {
            let field = "\(path)[\(index)]"
            let fields = [
                ("label", entry.label), ("name", entry.name ?? name), ("street", entry.street), ("city", entry.city),
                ("state", entry.state), ("zip", entry.zip), ("country", entry.country),
            ]
            for (key, value) in fields { try Self.checkText(value, "\(field).\(key)") }
            guard entry.zip.count <= ShippingAddress.maxZIPLength else {
                throw CatalogError(field: "\(field).zip", problem: "must be at most \(ShippingAddress.maxZIPLength) characters")
            }
            guard ShippingAddress.isCountryCode(entry.country) else {
                throw CatalogError(field: "\(field).country", problem: ShippingAddress.countryRule)
            }
            // The sheet picks an address by its label, so two alike would be ambiguous.
            guard !result.contains(where: { $0.label.lowercased() == entry.label.lowercased() }) else {
                throw CatalogError(field: "\(field).label", problem: "\"\(entry.label)\" is already the label of another address")
            }
            result.append(ShippingAddress(
                label: entry.label, name: entry.name ?? name, street: entry.street, city: entry.city,
                state: entry.state, zip: entry.zip, country: entry.country))
        }
        return result
    }

    private func checkedCards(at path: String) throws(CatalogError) -> [SavedCard] {
        var result: [SavedCard] = []
        for (index, entry) in (savedCards ?? []).enumerated() {
            let field = "\(path)[\(index)]"
            guard let network = CardNetwork(spelling: entry.network) else {
                throw CatalogError(field: "\(field).network", problem: "must be one of \(CardNetwork.spellings)")
            }
            if let problem = SavedCard.last4Problem(entry.last4) { throw CatalogError(field: "\(field).last4", problem: problem) }
            if let label = entry.label { try Self.checkText(label, "\(field).label") }
            guard !result.contains(where: { $0.network == network && $0.last4 == entry.last4 }) else {
                throw CatalogError(field: field, problem: "\(entry.network):\(entry.last4) is listed twice")
            }
            result.append(SavedCard(network: network, last4: entry.last4, label: entry.label))
        }
        return result
    }

    private static func checkText(_ text: String, _ field: String) throws(CatalogError) {
        if let problem = ShippingAddress.textProblem(text) { throw CatalogError(field: field, problem: problem) }
    }
}
