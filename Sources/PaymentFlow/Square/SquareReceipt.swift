import CheckoutModel
import Foundation
import ProviderWire

/// A Square payment as the receipt, the banner and `--json` read it.
enum SquareReceipt {
    /// The facts `--json` and transcripts carry, by Square's names.
    static func details(_ payment: SquarePayment) -> [String: String] {
        var details: [String: String] = ["payment_id": payment.id, "status": payment.status]
        let card = payment.cardDetails?.card
        let pairs: [(String, String?)] = [
            ("reference_id", payment.referenceID), ("card_brand", card?.cardBrand), ("last_4", card?.last4),
            ("cardholder_name", card?.cardholderName), ("entry_method", payment.cardDetails?.entryMethod),
            ("application_name", payment.cardDetails?.applicationName), ("aid", payment.cardDetails?.applicationIdentifier),
            ("amount", payment.amountMoney.map { String($0.amount) }), ("tip", payment.tipMoney.map { String($0.amount) }),
            ("app_fee", payment.appFeeMoney.map { String($0.amount) }), ("total", payment.totalMoney.map { String($0.amount) }),
            ("currency", payment.totalMoney?.currency ?? payment.amountMoney?.currency),
            ("receipt_number", payment.receiptNumber), ("receipt_url", payment.receiptURL), ("delayed_until", payment.delayedUntil),
            ("is_offline_payment", payment.isOfflinePayment.map { $0 ? "true" : "false" }),
        ]
        for (key, value) in pairs { if let value { details[key] = value } }
        return details
    }

    /// The printed receipt: the merchant, the number and status, the amounts, then the card,
    /// how it was read and the chip's application, and the receipt's link.
    static func printout(_ payment: SquarePayment, merchant: String) -> [String] {
        let card = payment.cardDetails?.card
        let currency = payment.amountMoney?.currency ?? "USD"
        var lines = [merchant, "Receipt #\(payment.receiptNumber ?? "—") · \(payment.status)", ""]
        lines.append(row("Amount", money(payment.amountMoney)))
        lines.append(row("Tip", money(payment.tipMoney ?? SquareMoney(amount: 0, currency: currency))))
        lines.append(row("Total", money(payment.totalMoney)))
        lines.append("")
        lines.append("\(brandName(card?.cardBrand)) •••• \(card?.last4 ?? "????")" + (card?.cardholderName.map { " · \($0)" } ?? ""))
        if let entry = entryName(payment.cardDetails?.entryMethod) { lines.append(entry) }
        if let application = payment.cardDetails?.applicationName ?? payment.cardDetails?.applicationIdentifier {
            lines.append(application + (payment.cardDetails?.applicationIdentifier.map { " · AID \($0)" } ?? ""))
        }
        if let url = payment.receiptURL { lines.append(url) }
        return lines
    }

    private static func row(_ label: String, _ value: String?) -> String {
        label.padding(toLength: 8, withPad: " ", startingAt: 0) + (value ?? "—")
    }

    static func money(_ money: SquareMoney?) -> String? {
        guard let money, let currency = Currency.withCode(money.currency) else { return nil }
        return Money(minorUnits: money.amount, currency: currency).formatted
    }

    static func brandName(_ brand: String?) -> String {
        switch brand {
        case "AMERICAN_EXPRESS": "Amex"
        case "MASTERCARD": "Mastercard"
        case "VISA": "Visa"
        case "DISCOVER": "Discover"
        case "SQUARE_GIFT_CARD": "Gift card"
        case let brand?: brand.capitalized
        case nil: "Card"
        }
    }

    static func entryName(_ entry: String?) -> String? {
        switch entry {
        case "CONTACTLESS": "Contactless (tap)"
        case "EMV": "Chip (insert)"
        case "SWIPED": "Swiped"
        case "KEYED": "Keyed"
        case let entry?: entry
        case nil: nil
        }
    }
}
