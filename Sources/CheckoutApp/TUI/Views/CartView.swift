import CheckoutModel
import TerminalUI

/// Line items with quantity, unit price and line total, then the summary ending in the total.
enum CartView {
    static func neededHeight(_ state: AppState) -> Int {
        let summaryLines = (try? state.summary.get().lines.count) ?? 1
        return state.cart.items.count + 1 + (summaryLines - state.cart.items.count) + 2
    }

    static func draw(_ screen: inout Screen, _ state: AppState, _ area: Rect) {
        let inside = CheckoutView.pane(&screen, state, .cart, area, title: "Cart")
        guard inside.width > 10 else { return }
        let right = inside.maxX - 1
        var y = inside.y
        for (index, item) in state.cart.items.enumerated() where y < inside.maxY {
            let selected = index == state.cartCursor
            let style: Style = selected && state.focus == .cart && state.overlay == nil ? Theme.cursor : .plain
            if selected { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
            let total = item.lineTotal.formatted
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
    }
}
