import CheckoutModel
import Foundation
import TerminalUI

/// Line items with quantity, unit price and line total, then the summary ending in the total.
enum CartView {
    static func neededHeight(_ state: AppState) -> Int {
        let summaryLines = (try? state.summary.get().lines.count) ?? 1
        if let receipt = state.receipt, !receipt.printout.isEmpty { return receiptLines(receipt).count + 3 }
        return state.cart.items.count + 1 + (summaryLines - state.cart.items.count) + 2 + (state.receipt == nil ? 0 : 3)
    }

    static func draw(_ screen: inout Screen, _ state: AppState, _ area: Rect) {
        let receipt = state.receipt
        let inside = CheckoutView.pane(&screen, state, .cart, area, title: receipt == nil ? "Cart" : receipt?.charged == false ? "Receipt · voided" : "Receipt · paid")
        guard inside.width > 10 else { return }
        let right = inside.maxX - 1
        if let receipt, !receipt.printout.isEmpty {
            // The provider's printed receipt stands for the cart: it has the amounts.
            drawPaid(&screen, receipt, inside, y: inside.y)
            for (offset, line) in receiptLines(receipt).enumerated() where inside.y + 1 + offset < inside.maxY {
                screen.put("  " + TerminalText.escapingControls(line), x: inside.x, y: inside.y + 1 + offset, style: offset == 0 ? .bold : .plain, maxWidth: inside.width)
            }
            return
        }
        var y = inside.y
        let items = state.cart.items
        for index in visibleItems(state, rows: inside.height) where y < inside.maxY {
            let item = items[index]
            let selected = index == state.layout.cartCursor && receipt == nil
            let style: Style = selected && state.layout.focus == .cart && state.layout.overlay == nil ? Theme.cursor : .plain
            if selected { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
            let total = (try? item.lineTotal)?.formatted ?? "too large"
            let quantity = "\(item.quantity) × \(item.unitPrice.formatted)"
            let priceColumn = right - total.count - 2 - quantity.count
            screen.put((selected ? "›" : " ") + item.name, x: inside.x, y: y, style: style, maxWidth: priceColumn - inside.x - 1)
            screen.put(quantity, x: priceColumn, y: y, style: style)
            screen.putRight(total, right: right, y: y, style: style)
            y += 1
        }
        guard y < inside.maxY else { return }
        for column in inside.x..<inside.maxX { screen[column, y] = Cell("╌", style: Theme.border) }
        y += 1
        switch state.summary {
        case .failure(let error):
            screen.put(error.description, x: inside.x + 1, y: y, style: Theme.warning, maxWidth: inside.width - 1)
        case .success(let summary):
            for line in summary.lines where line.kind != .item && y < inside.maxY {
                let style: Style = line.kind == .total ? Theme.total : (line.kind == .discount ? Style(foreground: .green) : .plain)
                let label = line.kind == .total ? "Total · \(line.label)" : line.label
                screen.put(" " + label, x: inside.x, y: y, style: style, maxWidth: inside.width - line.amount.formatted.count - 2)
                screen.putRight(line.amount.formatted, right: right, y: y, style: style)
                y += 1
            }
        }
        if let receipt { drawReceipt(&screen, receipt, inside, from: y) }
    }

    /// The lines that fit above the summary, scrolled so the cursor's line shows (a cart of a
    /// thousand lines draws only those).
    static func visibleItems(_ state: AppState, rows: Int) -> Range<Int> {
        let count = state.cart.items.count
        let summaryRows = ((try? state.summary.get().lines.count(where: { $0.kind != .item })) ?? 1) + (state.receipt == nil ? 0 : 3)
        let itemRows = max(1, rows - 1 - summaryRows)
        guard count > itemRows else { return 0..<count }
        let first = min(max(0, state.layout.cartCursor - itemRows + 1), count - itemRows)
        return first..<(first + itemRows)
    }

    /// The cart line drawn on row `y` of the pane in `area`, if any (a receipt has none to select).
    static func item(atRow y: Int, _ state: AppState, _ area: Rect) -> Int? {
        let inside = area.inset(by: 1)
        guard state.receipt == nil, inside.width > 10, y >= inside.y, y < inside.maxY else { return nil }
        let shown = visibleItems(state, rows: inside.height)
        let index = shown.lowerBound + (y - inside.y)
        return shown.contains(index) ? index : nil
    }

    /// The printed receipt as the pane shows it: without the merchant (the title has it) and blank lines.
    private static func receiptLines(_ receipt: Receipt) -> [String] {
        receipt.printout.dropFirst().filter { !$0.isEmpty }
    }

    /// "✔ Paid in 0:07" and the method; "✕ Voided, nothing charged" when the authorization was voided.
    private static func drawPaid(_ screen: inout Screen, _ receipt: Receipt, _ inside: Rect, y: Int) {
        let payer = receipt.cashtag.map { "Paid by \($0)" } ?? "Paid"
        let line = receipt.charged
            ? " ✔ \(payer) in \(CheckoutView.clock(TimeInterval(receipt.seconds)))" : " ✕ Voided in \(CheckoutView.clock(TimeInterval(receipt.seconds))), nothing charged"
        let end = screen.put(line, x: inside.x, y: y, style: receipt.charged ? Theme.banner(.success) : Theme.warning, maxWidth: inside.width)
        if end + 2 + receipt.method.count < inside.maxX { screen.putRight(receipt.method, right: inside.maxX - 1, y: y, style: Theme.dim) }
    }

    /// Who paid, how, and the ids support will ask for.
    private static func drawReceipt(_ screen: inout Screen, _ receipt: Receipt, _ inside: Rect, from top: Int) {
        guard top + 2 < inside.maxY else { return }
        for column in inside.x..<inside.maxX { screen[column, top] = Cell("╌", style: Theme.border) }
        drawPaid(&screen, receipt, inside, y: top + 1)
        var ids = [receipt.requestID] + receipt.grantIDs
        if let paymentID = receipt.paymentID { ids.insert("payment \(paymentID)", at: 0) }
        screen.put("   " + ids.joined(separator: " · "), x: inside.x, y: top + 2, style: Theme.dim, maxWidth: inside.width)
    }
}
