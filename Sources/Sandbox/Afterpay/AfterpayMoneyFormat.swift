import Hummingbird
import ProviderWire

/// Afterpay's Money as its API writes it: `amount` a string with exactly two decimals and no
/// sign, spaces or leading zeros ("45.05", "0.50"); `currency` an upper-case ISO 4217 code.
/// Anything else is refused where it enters, so nothing odd is signed into a JWT.
enum AfterpayMoneyFormat {
    /// Whole units stop at 9 digits: 999999999.99, the same ceiling as every amount here.
    static let maxWholeDigits = 9

    /// The amount in minor units, or a 400 naming `field`.
    static func minorUnits(_ money: AfterpayMoney, field: String) throws(AfterpayRejection) -> Int {
        let currency = Array(money.currency.utf8)
        guard currency.count == 3, currency.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            throw invalid("\(field).currency \(quoted(money.currency)) is not an ISO 4217 currency code in upper case, e.g. \"USD\"")
        }
        let parts = money.amount.split(separator: ".", omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { part in !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
        guard parts.count == 2, digits(parts[0]), digits(parts[1]), parts[1].count == 2,
            parts[0] == "0" || !parts[0].hasPrefix("0"), parts[0].count <= maxWholeDigits,
            let whole = Int(parts[0]), let cents = Int(parts[1])
        else {
            throw invalid(
                "\(field).amount \(quoted(money.amount)) is not an Afterpay amount: a string with exactly two decimals and no sign, "
                    + "spaces or leading zeros, from \"0.00\" to \"999999999.99\", e.g. \"45.05\"")
        }
        return whole * 100 + cents
    }

    private static func invalid(_ message: String) -> AfterpayRejection {
        AfterpayRejection(.badRequest, "invalid_object", message + ".")
    }

    /// The value as JSON would show it, cut short so a huge one cannot flood the answer.
    private static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"\(shown)\""
    }
}
