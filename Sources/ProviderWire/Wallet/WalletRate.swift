import CheckoutModel
import Foundation

/// One shipping rate of the wallet sheet, as the rates service sends it:
/// `{id, carrier, service, amount, currency, formatted_arrival_date}`.
public struct WalletRate: Codable, Hashable, Sendable {
    public var id: String
    public var carrier: String
    public var service: String
    /// A decimal in the currency's major unit ("7.45"), as the seed's backend sends it.
    public var amount: String
    /// ISO 4217; the seed's backend may leave it out (the shop's currency is meant).
    public var currency: String?
    /// "Tue, Nov 24": shown as is.
    public var formattedArrivalDate: String

    public init(id: String, carrier: String, service: String, amount: String, currency: String?, formattedArrivalDate: String) {
        self.id = id
        self.carrier = carrier
        self.service = service
        self.amount = amount
        self.currency = currency
        self.formattedArrivalDate = formattedArrivalDate
    }

    enum CodingKeys: String, CodingKey {
        case id, carrier, service, amount, currency
        case formattedArrivalDate = "formatted_arrival_date"
    }
}

/// A rates body that is not what the wallet sheet can show, naming the field at fault
/// (`rates[2].amount: "7.4.5" is not a decimal amount`).
public struct WalletWireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The JSON path of the field: `rates`, `rates[2]`, `rates[2].amount`.
    public let field: String
    public let problem: String

    public init(field: String, problem: String) {
        self.field = field
        self.problem = problem
    }

    public var description: String { "\(field): \(problem)" }
}

/// Reads the rates service's answer strictly: the sheet shows every rate it is given, so a rate
/// that cannot be shown (or priced) refuses the whole answer rather than vanishing from it.
public enum WalletRatesDecoding {
    /// More rates than a sheet can list is a broken service, not a choice.
    public static let maxRates = 100
    public static let maxTextLength = 200
    /// Up to a billion in major units: far past any parcel, short of overflowing minor units.
    public static let maxWholeDigits = 9

    public static func decode(_ data: Data) throws(WalletWireError) -> [WalletRate] {
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw WalletWireError(field: "rates", problem: "the body is not JSON")
        }
        guard let items = parsed as? [Any] else { throw WalletWireError(field: "rates", problem: "the body is not a JSON array of rates") }
        guard items.count <= maxRates else { throw WalletWireError(field: "rates", problem: "\(items.count) rates, more than the \(maxRates) a sheet lists") }
        var rates: [WalletRate] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            let rate = try self.rate(item, at: "rates[\(index)]")
            guard seen.insert(rate.id).inserted else {
                throw WalletWireError(field: "rates[\(index)].id", problem: "\(quoted(rate.id)) is the id of an earlier rate")
            }
            rates.append(rate)
        }
        return rates
    }

    private static func rate(_ item: Any, at path: String) throws(WalletWireError) -> WalletRate {
        guard let fields = item as? [String: Any] else { throw WalletWireError(field: path, problem: "a rate must be a JSON object") }
        func text(_ key: String, required: Bool = true, nonEmpty: Bool = true) throws(WalletWireError) -> String? {
            let field = "\(path).\(key)"
            guard let value = fields[key], !(value is NSNull) else {
                if required { throw WalletWireError(field: field, problem: "missing") }
                return nil
            }
            // JSONSerialization reads true and 1 as NSNumber: only a real string is text.
            guard let string = value as? String, !(value is NSNumber) else { throw WalletWireError(field: field, problem: "must be a string") }
            if nonEmpty, string.trimmedOfWhitespaceAndNewlines.isEmpty {
                throw WalletWireError(field: field, problem: "must not be empty")
            }
            guard string.count <= maxTextLength else { throw WalletWireError(field: field, problem: "longer than \(maxTextLength) characters") }
            guard !string.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw WalletWireError(field: field, problem: "contains control characters")
            }
            return string
        }
        let id = try text("id") ?? ""
        let carrier = try text("carrier") ?? ""
        let service = try text("service") ?? ""
        let amount = try text("amount") ?? ""
        guard isDecimalAmount(amount) else {
            throw WalletWireError(field: "\(path).amount", problem: "\(quoted(amount)) is not a decimal amount (digits, then at most 2 decimals: \"7.45\")")
        }
        let currency = try text("currency", required: false)
        if let currency, !(currency.count == 3 && currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })) {
            throw WalletWireError(field: "\(path).currency", problem: "\(quoted(currency)) is not an ISO 4217 code such as \"USD\"")
        }
        let arrival = try text("formatted_arrival_date", nonEmpty: false) ?? ""
        return WalletRate(id: id, carrier: carrier, service: service, amount: amount, currency: currency, formattedArrivalDate: arrival)
    }

    /// `7`, `7.4`, `7.45`: ASCII digits, no sign, at most two decimals.
    static func isDecimalAmount(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        guard (1...maxWholeDigits).contains(whole.count), whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        guard parts.count == 2 else { return true }
        return (1...2).contains(parts[1].count) && parts[1].allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The value as the message shows it: quoted, cut short.
    private static func quoted(_ text: String) -> String {
        "\"\(text.prefix(40))\(text.count > 40 ? "…" : "")\""
    }
}
