/// A contact detail the merchant asks the wallet sheet for.
public enum ContactField: String, CaseIterable, Sendable {
    case postalAddress = "postal", email, phone, name

    /// The field spelled `text` in any case: postal or postal-address, email, phone, name.
    public init?(spelling text: String) {
        let lowered = text.lowercased()
        self.init(rawValue: lowered == "postal-address" ? "postal" : lowered)
    }
}
