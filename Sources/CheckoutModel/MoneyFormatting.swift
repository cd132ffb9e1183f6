extension Money: CustomStringConvertible {
    /// Display form with the currency's symbol and grouping: "$1,234.56", "-$5.00", "¥1,200",
    /// "฿1,290.00", "Rp1.290.000,00".
    public var formatted: String {
        let plain = decimalString
        let parts = plain.drop { $0 == "-" }.split(separator: ".", maxSplits: 1)
        let grouped = Self.groupThousands(String(parts[0]), separator: currency.groupingSeparator)
        let body = parts.count > 1 ? "\(grouped)\(currency.decimalSeparator)\(parts[1])" : grouped
        return (minorUnits < 0 ? "-" : "") + currency.symbol + body
    }

    public var description: String { formatted }

    private static func groupThousands(_ digits: String, separator: String) -> String {
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return groups.joined(separator: separator)
    }
}
