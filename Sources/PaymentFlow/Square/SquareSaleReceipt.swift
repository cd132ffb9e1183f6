import CheckoutModel
import Foundation
import ProviderWire

/// A sale paid in several payments (a gift card's partial authorization and the card that paid
/// the rest): one receipt listing each payment, then the sale's total.
extension SquareReceipt {
    /// The payments' totals added (nil without a total, with mixed currencies, or when the sum
    /// does not fit: amounts decoded from Square never trap).
    static func sum(_ payments: [SquarePayment]) -> SquareMoney? {
        let totals = payments.compactMap(\.totalMoney)
        guard totals.count == payments.count, let currency = totals.first?.currency, totals.allSatisfy({ $0.currency == currency }),
            let amount = checkedSum(totals.map(\.amount))
        else { return nil }
        return SquareMoney(amount: amount, currency: currency)
    }

    /// Square's `amount` as the checkout's money, when it is in the checkout's currency.
    static func money(_ money: SquareMoney, like asked: Money) -> Money? {
        money.currency == asked.currency.code ? Money(minorUnits: money.amount, currency: asked.currency) : nil
    }

    /// The payments' tips added (nil when the sum does not fit).
    static func tipSum(_ payments: [SquarePayment]) -> Int? {
        checkedSum(payments.map { $0.tipMoney?.amount ?? 0 })
    }

    /// Minor units added without trapping: nil on overflow.
    static func checkedSum(_ amounts: [Int]) -> Int? {
        var total = 0
        for amount in amounts {
            let (sum, overflow) = total.addingReportingOverflow(amount)
            if overflow { return nil }
            total = sum
        }
        return total
    }

    /// `Gift card •••• 0000   $10.00 APPROVED`.
    static func tenderLine(_ payment: SquarePayment, withStatus: Bool = true) -> String {
        let card = payment.cardDetails?.card
        return "\(brandName(card?.cardBrand)) •••• \(card?.last4 ?? "????")".padding(toLength: 22, withPad: " ", startingAt: 0)
            + "\(money(payment.totalMoney) ?? "—")" + (withStatus ? " \(payment.status)" : "")
    }

    static func salePrintout(_ payments: [SquarePayment], merchant: String) -> [String] {
        var lines = [merchant, "Sale in \(payments.count) payments", ""]
        for (index, payment) in payments.enumerated() {
            let card = payment.cardDetails?.card
            // Three short lines a payment, so the receipt fits the 80-column screen's pane.
            lines.append("\(index + 1). " + tenderLine(payment, withStatus: false))
            var status = [payment.status]
            if let receipt = payment.receiptNumber { status.append("Receipt #\(receipt)") }
            if let tip = payment.tipMoney, tip.amount > 0, let text = money(tip) { status.append("tip \(text)") }
            lines.append("   " + status.joined(separator: " · "))
            let how = [entryName(payment.cardDetails?.entryMethod), card?.cardholderName].compactMap { $0 }
            if !how.isEmpty { lines.append("   " + how.joined(separator: " · ")) }
        }
        lines.append("")
        let currency = payments.first?.amountMoney?.currency ?? "USD"
        lines.append("Total".padding(toLength: 8, withPad: " ", startingAt: 0) + (money(sum(payments) ?? SquareMoney(amount: 0, currency: currency)) ?? "—"))
        return lines
    }
}
