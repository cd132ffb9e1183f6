import CheckoutModel
import Foundation
import PaymentFlow

/// Wallet flags read from text (`--address`, `--wallet-cards`, `--wallet-addresses`, `--networks`,
/// `--require`, `--shipping-methods`, `--merchant-capabilities`): each gives a value or a
/// WalletSpecError naming the flag and the form it takes.

/// A wallet flag whose text cannot be read: which flag, what is wrong, and the form it takes.
public struct WalletSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The flag the text came from, e.g. "--address".
    public let flag: String
    public let problem: String
    /// The form the flag takes, with an example.
    public let form: String

    public var description: String { "\(flag): \(problem); expected \(form)" }
}

extension ContactField {
    /// `--require postal,email,phone`: the fields in order, each once; empty text asks for none.
    public static func parseList(_ text: String) throws(WalletSpecError) -> [ContactField] {
        let fail = WalletSpecs.failure("--require", "a comma-separated list of postal (or postal-address), email, phone, name")
        var fields: [ContactField] = []
        for entry in WalletSpecs.entries(text, separatedBy: ",") {
            guard let field = ContactField(spelling: entry) else { throw fail("unknown contact field \"\(entry)\"") }
            guard !fields.contains(field) else { throw fail("\"\(entry)\" is listed twice") }
            fields.append(field)
        }
        return fields
    }
}

extension CardNetwork {
    /// `--networks amex,mastercard,visa`: the accepted networks in order, each once, at least one.
    public static func parseList(_ text: String) throws(WalletSpecError) -> [CardNetwork] {
        let fail = WalletSpecs.failure("--networks", "a comma-separated list of \(spellings) (e.g. amex,mastercard,visa)")
        var networks: [CardNetwork] = []
        for entry in WalletSpecs.entries(text, separatedBy: ",") {
            guard let network = CardNetwork(spelling: entry) else { throw fail("unknown card network \"\(entry)\"") }
            guard !networks.contains(network) else { throw fail("\"\(entry)\" is listed twice") }
            networks.append(network)
        }
        guard !networks.isEmpty else { throw fail("no card networks given") }
        return networks
    }
}

extension SavedCard {
    /// `--wallet-cards "visa:4242,mastercard:4444"`: network:last4 pairs, each card once, at least one.
    public static func parseList(_ text: String) throws(WalletSpecError) -> [SavedCard] {
        let fail = WalletSpecs.failure(
            "--wallet-cards", "comma-separated network:last4 pairs (e.g. visa:4242,mastercard:4444), network one of \(CardNetwork.spellings)")
        var cards: [SavedCard] = []
        for entry in WalletSpecs.entries(text, separatedBy: ",") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(\.trimmedOfWhitespace)
            guard parts.count == 2 else { throw fail("\"\(entry)\" is not network:last4") }
            guard let network = CardNetwork(spelling: parts[0]) else { throw fail("unknown card network \"\(parts[0])\" in \"\(entry)\"") }
            if let problem = SavedCard.last4Problem(parts[1]) { throw fail("last4 in \"\(entry)\" \(problem)") }
            let card = SavedCard(network: network, last4: parts[1])
            guard !cards.contains(card) else { throw fail("\"\(entry)\" is listed twice") }
            cards.append(card)
        }
        guard !cards.isEmpty else { throw fail("no cards given") }
        return cards
    }
}

extension ShippingAddress {
    static let partsForm = "'street,city,state,zip,country' (e.g. '1 Main St,Portland,OR,97201,US')"

    /// `--address '1 Main St,Portland,OR,97201,US'`: labelled "Entered", with no name.
    public static func parse(_ text: String) throws(WalletSpecError) -> ShippingAddress {
        try parse(text, label: "Entered", fail: WalletSpecs.failure("--address", partsForm))
    }

    /// `--wallet-addresses "Home=1 Main St,Portland,OR,97201,US;Office=…"`: labelled addresses
    /// separated by `;`, each label once, at least one.
    public static func parseList(_ text: String) throws(WalletSpecError) -> [ShippingAddress] {
        let fail = WalletSpecs.failure(
            "--wallet-addresses", "'Label=street,city,state,zip,country' entries separated by ';' (e.g. 'Home=1 Main St,Portland,OR,97201,US')")
        var addresses: [ShippingAddress] = []
        for entry in WalletSpecs.entries(text, separatedBy: ";") {
            guard let equals = entry.firstIndex(of: "=") else { throw fail("\"\(entry)\" has no Label=") }
            let label = entry[..<equals].trimmedOfWhitespace
            if let problem = textProblem(label) { throw fail("the label of \"\(entry)\" \(problem)") }
            guard !addresses.contains(where: { $0.label.lowercased() == label.lowercased() }) else {
                throw fail("the label \"\(label)\" is used twice")
            }
            let rest = String(entry[entry.index(after: equals)...])
            addresses.append(try parse(rest, label: label) { problem in fail("\(label): \(problem)") })
        }
        guard !addresses.isEmpty else { throw fail("no addresses given") }
        return addresses
    }

    private static func parse(
        _ text: String, label: String, fail: (String) -> WalletSpecError
    ) throws(WalletSpecError) -> ShippingAddress {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmedOfWhitespace)
        guard parts.count == 5 else { throw fail("has \(parts.count) comma-separated parts, not 5") }
        let address = ShippingAddress(
            label: label, name: "", street: parts[0], city: parts[1], state: parts[2], zip: parts[3], country: parts[4])
        if let problem = address.postalProblem() { throw fail(problem) }
        return address
    }
}

extension WalletSettings.FlatMethods {
    static let form = "catalog, or 'id:label:detail:amount' entries separated by ';' (e.g. 'freeshipping:Free Shipping:Arrives in 6-8 weeks:0;expressshipping:Express Shipping:Arrives in 2-3 days:10.00'; amount 'pending' for one not priced yet)"

    /// `--shipping-methods`: `catalog`, or the merchant's own methods, each id once, at least one.
    static func parse(_ text: String) throws(WalletSpecError) -> WalletSettings.FlatMethods {
        let fail = WalletSpecs.failure("--shipping-methods", form)
        if text.trimmedOfWhitespace.lowercased() == "catalog" { return .catalog }
        var methods: [WalletFlatMethod] = []
        for entry in WalletSpecs.entries(text, separatedBy: ";") {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false).map(\.trimmedOfWhitespace)
            guard parts.count == 4 else { throw fail("\"\(entry.prefix(60))\" has \(parts.count) ':'-separated parts, not 4") }
            let (id, label, detail, amount) = (parts[0], parts[1], parts[2], parts[3])
            guard (1...64).contains(id.count), id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
                throw fail("the id \"\(id.prefix(64))\" must be 1 to 64 letters, digits, '-', '_' or '.'")
            }
            guard !methods.contains(where: { $0.id == id }) else { throw fail("the id \"\(id)\" is used twice") }
            guard (1...60).contains(label.count), !label.contains(where: \.isControlCharacter) else { throw fail("the label of \(id) must be 1 to 60 characters") }
            guard detail.count <= 80, !detail.contains(where: \.isControlCharacter) else { throw fail("the detail of \(id) must be at most 80 characters") }
            if amount.lowercased() == "pending" {
                methods.append(WalletFlatMethod(id: id, label: label, detail: detail, amount: nil))
                continue
            }
            let pieces = amount.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), (1...9).contains(pieces[0].count), pieces.allSatisfy({ $0.allSatisfy(\.isASCIIDigitCharacter) }),
                pieces.count == 1 || (1...3).contains(pieces[1].count)
            else { throw fail("the amount of \(id), \"\(amount.prefix(20))\", must be a decimal such as 0 or 10.00 (not negative), or pending") }
            methods.append(WalletFlatMethod(id: id, label: label, detail: detail, amount: amount))
        }
        guard !methods.isEmpty else { throw fail("no shipping methods given") }
        return .list(methods)
    }
}

extension WalletSettings.Capability {
    static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// `--merchant-capabilities supports3DS,supportsCredit`: each once, at least one.
    static func parseList(_ text: String) throws(WalletSpecError) -> [WalletSettings.Capability] {
        let fail = WalletSpecs.failure("--merchant-capabilities", "a comma-separated list of \(spellings) (e.g. supports3DS,supportsDebit)")
        var capabilities: [WalletSettings.Capability] = []
        for entry in WalletSpecs.entries(text, separatedBy: ",") {
            guard let capability = WalletSettings.Capability(spelling: entry) else { throw fail("unknown capability \"\(entry.prefix(40))\"") }
            guard !capabilities.contains(capability) else { throw fail("\"\(entry)\" is listed twice") }
            capabilities.append(capability)
        }
        guard !capabilities.isEmpty else { throw fail("no capabilities given") }
        return capabilities
    }
}

extension Character {
    fileprivate var isControlCharacter: Bool { unicodeScalars.contains { $0.properties.generalCategory == .control } }
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

/// Splitting and trimming shared by the wallet flags.
enum WalletSpecs {
    /// The trimmed, non-empty entries of `text` (a trailing separator is forgiven).
    static func entries(_ text: String, separatedBy separator: Character) -> [String] {
        text.split(separator: separator).map(\.trimmedOfWhitespace).filter { !$0.isEmpty }
    }

    /// Makes errors for `flag`, which takes `form`.
    static func failure(_ flag: String, _ form: String) -> (String) -> WalletSpecError {
        { problem in WalletSpecError(flag: flag, problem: problem, form: form) }
    }
}
