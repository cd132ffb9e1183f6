import CheckoutModel
import Foundation
import ProviderWire

/// The merchant's card form, tokenized as Square's card form does in its sandbox: a form that
/// checks out becomes the documented test nonce for the outcome the values ask for.
public struct WalletKeyedCard: Hashable, Sendable {
    /// Square's sandbox card numbers that approve, and the one this sandbox declines.
    public static let approvingNumbers = ["4111111111111111", "5105105105105100", "340000000000009", "6011000000000004"]
    public static let decliningNumber = "4000000000000002"

    public var number: String
    public var expiryMonth: Int
    public var expiryYear: Int
    public var cvc: String
    public var zip: String

    /// Reads the form; the problem names the field and what it takes.
    public static func read(_ fields: [String: String]) -> Result<WalletKeyedCard, WalletFormProblem> {
        let number = (fields["number"] ?? "").filter { !$0.isWhitespace && $0 != "-" }
        guard (13...19).contains(number.count), number.allSatisfy(\.isASCIIDigitCharacter) else {
            return .failure(WalletFormProblem("Card number: 13 to 19 digits"))
        }
        guard luhnValid(number) else { return .failure(WalletFormProblem("Card number: not a valid card number (check the digits)")) }
        let expiry = (fields["expiry"] ?? "").split(separator: "/").map { $0.trimmedOfWhitespace }
        guard expiry.count == 2, let month = Int(expiry[0]), (1...12).contains(month), let shortYear = Int(expiry[1]), (0...99).contains(shortYear) else {
            return .failure(WalletFormProblem("Expiry: MM/YY, e.g. 12/30"))
        }
        let cvc = fields["cvc"] ?? ""
        guard (3...4).contains(cvc.count), cvc.allSatisfy(\.isASCIIDigitCharacter) else { return .failure(WalletFormProblem("CVC: 3 or 4 digits")) }
        let zip = (fields["zip"] ?? "").trimmedOfWhitespace
        guard (1...12).contains(zip.count) else { return .failure(WalletFormProblem("ZIP: the billing ZIP or postal code")) }
        return .success(WalletKeyedCard(number: number, expiryMonth: month, expiryYear: 2000 + shortYear, cvc: cvc, zip: zip))
    }

    /// Square's sandbox nonce for this card, by the documented test values: CVC 911, postal
    /// code 99999, a past expiry, and the declining number; other test numbers approve.
    public func sandboxNonce(now: Date = Date()) -> Result<String, WalletFormProblem> {
        let today = CivilDate.split(now).date
        let (year, month) = (Int(today.year), Int(today.month))
        if expiryYear < year || (expiryYear == year && expiryMonth < month) {
            return .success("cnon:card-nonce-rejected-expiration")
        }
        if number == Self.decliningNumber { return .success("cnon:card-nonce-declined") }
        guard Self.approvingNumbers.contains(number) else {
            return .failure(WalletFormProblem("Card number: in the sandbox use a Square test card: \(Self.approvingNumbers.joined(separator: ", ")) or \(Self.decliningNumber) (declines)"))
        }
        if cvc == "911" { return .success("cnon:card-nonce-rejected-cvv") }
        if zip == "99999" { return .success("cnon:card-nonce-rejected-postalcode") }
        return .success("cnon:card-nonce-ok")
    }

    public var last4: String { String(number.suffix(4)) }

    static func luhnValid(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard let digit = character.wholeNumberValue else { return false }
            let doubled = index % 2 == 1 ? digit * 2 : digit
            sum += doubled > 9 ? doubled - 9 : doubled
        }
        return sum % 10 == 0
    }
}

/// A form value that cannot be used, naming the field.
public struct WalletFormProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
