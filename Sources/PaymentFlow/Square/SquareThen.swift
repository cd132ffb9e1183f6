import Foundation
import ProviderWire

extension SquarePaymentSettings {
    /// `--then`'s spellings: `complete`, `cancel`, `expire`, or `tip:AMOUNT,complete` (a tip in
    /// minor units added by UpdatePayment once APPROVED, then completed or cancelled).
    public static let thenSyntax = "complete|cancel|expire|tip:MINOR-UNITS,complete"

    /// `--then`'s value read: the tip to add first (if any) and what follows; nil when it is not
    /// one of the spellings.
    public static func parseThen(_ text: String) -> (tip: Int?, then: Then)? {
        if let then = Then(rawValue: text) { return (nil, then) }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, parts[0].hasPrefix("tip:"), let then = Then(rawValue: parts[1]), then != .expire,
            let tip = Int(parts[0].dropFirst(4)), (0...99_999_999).contains(tip)
        else { return nil }
        return (tip, then)
    }

    /// `--card`'s value read: one test card, or several separated by commas, presented in turn
    /// (after a decline, or for what a gift card left); nil when a name is unknown.
    public static func parseCards(_ text: String) -> [SquareTestCard]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard (1...8).contains(names.count) else { return nil }
        let cards = names.compactMap(SquareTestCard.named)
        return cards.count == names.count ? cards : nil
    }
}
