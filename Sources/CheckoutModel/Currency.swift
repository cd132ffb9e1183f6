/// An ISO 4217 currency with the number of minor-unit digits it uses.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    public let code: String
    public let minorUnitDigits: Int
    public let symbol: String
    /// Between groups of thousands, and before the minor units, as the currency's country writes them.
    public let groupingSeparator: String
    public let decimalSeparator: String

    public init(code: String, minorUnitDigits: Int, symbol: String, groupingSeparator: String = ",", decimalSeparator: String = ".") {
        self.code = code
        self.minorUnitDigits = minorUnitDigits
        self.symbol = symbol
        self.groupingSeparator = groupingSeparator
        self.decimalSeparator = decimalSeparator
    }

    public static let usd = Currency(code: "USD", minorUnitDigits: 2, symbol: "$")
    public static let eur = Currency(code: "EUR", minorUnitDigits: 2, symbol: "€")
    public static let gbp = Currency(code: "GBP", minorUnitDigits: 2, symbol: "£")
    public static let aud = Currency(code: "AUD", minorUnitDigits: 2, symbol: "A$")
    public static let cad = Currency(code: "CAD", minorUnitDigits: 2, symbol: "CA$")
    public static let jpy = Currency(code: "JPY", minorUnitDigits: 0, symbol: "¥")
    /// Thai baht: ISO 4217 gives it two minor units (satang); written ฿1,290.00.
    public static let thb = Currency(code: "THB", minorUnitDigits: 2, symbol: "฿")
    /// Indonesian rupiah: ISO 4217 gives it two minor units; written Rp1.290.000,00.
    public static let idr = Currency(code: "IDR", minorUnitDigits: 2, symbol: "Rp", groupingSeparator: ".", decimalSeparator: ",")

    public static let known: [Currency] = [.usd, .eur, .gbp, .aud, .cad, .jpy, .thb, .idr]

    /// The currency for an ISO code, or nil when this build does not know it.
    public static func withCode(_ code: String) -> Currency? {
        known.first { $0.code == code.uppercased() }
    }

    /// 10^minorUnitDigits: how many minor units make one major unit.
    public var minorUnitsPerMajor: Int {
        (0..<minorUnitDigits).reduce(1) { product, _ in product * 10 }
    }

    public var description: String { code }

    public init(from decoder: any Decoder) throws {
        let code = try decoder.singleValueContainer().decode(String.self)
        guard let currency = Currency.withCode(code) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "unknown currency \(code); known: \(Currency.known.map(\.code).joined(separator: ", "))"))
        }
        self = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
