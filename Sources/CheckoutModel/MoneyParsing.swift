/// Why a decimal string is not an amount of money.
public struct MoneyParseError: Error, Equatable, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "\"\(text)\" is not an amount: \(reason)" }
}

extension Money {
    /// Parses a plain decimal string such as "19.99", "-5", "0.5" exactly into minor units.
    /// More fraction digits than the currency has is an error, never silently rounded.
    public init(decimal text: String, currency: Currency) throws(MoneyParseError) {
        var digits = Substring(text.trimmingWhitespace())
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard !whole.isEmpty || !fraction.isEmpty else {
            throw MoneyParseError(text: text, reason: "no digits")
        }
        guard whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit) else {
            throw MoneyParseError(text: text, reason: "only digits and one decimal point are allowed")
        }
        guard fraction.count <= currency.minorUnitDigits else {
            throw MoneyParseError(
                text: text,
                reason: "\(currency.code) has \(currency.minorUnitDigits) decimal places, got \(fraction.count)")
        }
        guard whole.count <= 15 else {
            throw MoneyParseError(text: text, reason: "too large")
        }
        let paddedFraction = fraction + String(repeating: "0", count: currency.minorUnitDigits - fraction.count)
        let units = (Int(whole) ?? 0) * currency.minorUnitsPerMajor + (Int(paddedFraction) ?? 0)
        self.init(minorUnits: negative ? -units : units, currency: currency)
    }

    /// The plain decimal string providers such as Afterpay use: "19.99", "-5.00", "1000".
    public var decimalString: String {
        let magnitude = minorUnits.magnitude
        let sign = minorUnits < 0 ? "-" : ""
        guard currency.minorUnitDigits > 0 else { return sign + String(magnitude) }
        let per = UInt(currency.minorUnitsPerMajor)
        let fraction = String(magnitude % per)
        let padded = String(repeating: "0", count: currency.minorUnitDigits - fraction.count) + fraction
        return "\(sign)\(magnitude / per).\(padded)"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    func trimmingWhitespace() -> Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}
