/// A place to ship to: one of the customer's saved addresses, or one typed in.
public struct ShippingAddress: Hashable, Sendable {
    /// What the sheet lists it as, e.g. "Home".
    public let label: String
    /// Who receives the parcel; empty for an address given as `--address`.
    public let name: String
    public let street: String
    public let city: String
    public let state: String
    public let zip: String
    /// ISO 3166 alpha-2, uppercased (e.g. "US").
    public let country: String

    public init(label: String, name: String, street: String, city: String, state: String, zip: String, country: String) {
        self.label = label
        self.name = name
        self.street = street
        self.city = city
        self.state = state
        self.zip = zip
        self.country = country.uppercased()
    }

    /// The address on one line, e.g. "1 Main St, Portland OR 97201, US".
    public var oneLine: String {
        let locality = [city, state, zip].filter { !$0.isEmpty }.joined(separator: " ")
        return [street, locality, country].filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// What is wrong with an address entered in the sheet's form, naming the field, or nil.
    /// The label is not checked: the form chooses it, the customer does not type it.
    public func validationProblem() -> String? {
        if let problem = ShippingAddress.textProblem(name) { return "name \(problem)" }
        return postalProblem()
    }

    /// The first problem with the postal fields (street to country), naming the field, or nil.
    public func postalProblem() -> String? {
        for (field, value) in [("street", street), ("city", city), ("state", state), ("ZIP", zip), ("country", country)] {
            if let problem = ShippingAddress.textProblem(value) { return "\(field) \(problem)" }
        }
        if zip.count > ShippingAddress.maxZIPLength { return "ZIP must be at most \(ShippingAddress.maxZIPLength) characters" }
        if !ShippingAddress.isCountryCode(country) { return "country \(ShippingAddress.countryRule)" }
        return nil
    }

    static let maxZIPLength = 12
    /// The longest text a customer field may hold; longer is a mistake, not an address.
    static let maxFieldLength = 200
    static let countryRule = "must be two letters (ISO 3166 alpha-2, e.g. US)"

    /// Why `text` cannot fill a customer field (empty, only spaces, or too long), or nil.
    public static func textProblem(_ text: String) -> String? {
        if text.allSatisfy(\.isWhitespace) { return "must not be empty" }
        if text.count > maxFieldLength { return "must be at most \(maxFieldLength) characters" }
        return nil
    }

    /// Two ASCII letters, either case.
    static func isCountryCode(_ text: String) -> Bool {
        text.count == 2 && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
    }
}
