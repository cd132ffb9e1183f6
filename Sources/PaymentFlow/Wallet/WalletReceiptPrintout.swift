import CheckoutModel

/// The wallet's receipt as the customer paid it: the sheet's summary items (its shipping method
/// and tax, which may differ from the cart's), then the total. The screen shows it in place of
/// the cart, so the receipt never shows a total other than the one charged.
enum WalletReceiptPrintout {
    /// Label column and amount column, so a line fits the 80-column screen's receipt pane.
    static let labelWidth = 26
    static let amountWidth = 10

    static func lines(_ items: [WalletSummaryItem], card: String?) -> [String] {
        guard let total = items.last else { return [] }
        var lines = [total.label]
        if let card, !card.isEmpty { lines.append("Paid with \(card)") }
        lines.append("")
        lines += items.dropLast().map { line($0.label, $0.pending ? "pending" : $0.amount.formatted) }
        lines.append(line("Total", total.amount.formatted))
        return lines
    }

    private static func line(_ label: String, _ amount: String) -> String {
        let shortLabel = label.count > labelWidth - 1 ? String(label.prefix(labelWidth - 2)) + "…" : label
        let paddedAmount = String(repeating: " ", count: max(0, amountWidth - amount.count)) + amount
        return shortLabel.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + paddedAmount
    }
}

extension WalletAdapter {
    /// The receipt the screen shows for a sheet paid with `card` on these summary items.
    public static func printout(_ items: [WalletSummaryItem], card: String?) -> [String] {
        WalletReceiptPrintout.lines(items, card: card)
    }
}
