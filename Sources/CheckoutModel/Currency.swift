/// An ISO 4217 currency with the number of minor-unit digits it uses.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    public let code: String
    public let minorUnitDigits: Int
    public let symbol: String

    public init(code: String, minorUnitDigits: Int, symbol: String) {
        self.code = code
        self.minorUnitDigits = minorUnitDigits
        self.symbol = symbol
    }

    public static let usd = Currency(code: "USD", minorUnitDigits: 2, symbol: "$")
    public static let eur = Currency(code: "EUR", minorUnitDigits: 2, symbol: "€")
    public static let gbp = Currency(code: "GBP", minorUnitDigits: 2, symbol: "£")
    public static let aud = Currency(code: "AUD", minorUnitDigits: 2, symbol: "A$")
    public static let cad = Currency(code: "CAD", minorUnitDigits: 2, symbol: "CA$")
    public static let jpy = Currency(code: "JPY", minorUnitDigits: 0, symbol: "¥")

    public static let known: [Currency] = [.usd, .eur, .gbp, .aud, .cad, .jpy]

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
