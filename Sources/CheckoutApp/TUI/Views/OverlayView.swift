import TerminalUI

/// The help and quit-confirmation overlays.
enum OverlayView {
    static func help(_ screen: inout Screen, _ state: AppState) {
        let rows = KeyHelp.rows
        let keyWidth = rows.map(\.keys.count).max() ?? 10
        let width = min(state.layout.width - 4, keyWidth + 4 + (rows.map(\.text.count).max() ?? 40) + 2)
        // A blank line above and below the keys while the title and hints lines stay in view.
        let padding = rows.count + 4 <= state.layout.height - 2 ? 1 : 0
        let rect = Rect(x: 0, y: 0, width: state.layout.width, height: state.layout.height)
            .centered(width: width, height: rows.count + 2 + 2 * padding)
        screen.fill(rect)
        let inside = screen.box(rect, title: "Keys", style: Theme.focusedBorder, titleStyle: Theme.focusedBorder)
        for (index, row) in rows.enumerated() where inside.y + padding + index < inside.maxY {
            let y = inside.y + padding + index
            screen.put(row.keys, x: inside.x + 1, y: y, style: Theme.key)
            screen.put(row.text, x: inside.x + keyWidth + 3, y: y, maxWidth: inside.maxX - inside.x - keyWidth - 3)
        }
    }

    static func confirmQuit(_ screen: inout Screen, _ state: AppState) {
        let question = "A payment is in flight (\(state.checkout.state.name)). Quit anyway?"
        let rect = Rect(x: 0, y: 0, width: state.layout.width, height: state.layout.height).centered(width: question.count + 6, height: 5)
        screen.fill(rect)
        let inside = screen.box(rect, title: "Quit?", style: Theme.warning, titleStyle: Theme.warning)
        screen.put(question, x: inside.x + 2, y: inside.y + 1, maxWidth: inside.width - 2)
        let x = screen.put("y", x: inside.x + 2, y: inside.y + 2, style: Theme.key)
        let x2 = screen.put(" quit   ", x: x, y: inside.y + 2, style: Theme.dim)
        let x3 = screen.put("n", x: x2, y: inside.y + 2, style: Theme.key)
        screen.put(" keep paying", x: x3, y: inside.y + 2, style: Theme.dim)
    }

    /// The catalog's products, to add one to the cart.
    static func addProduct(_ screen: inout Screen, _ state: AppState, cursor: Int) {
        let products = state.catalogProducts
        let nameWidth = products.map(\.name.count).max() ?? 20
        let width = min(state.layout.width - 4, nameWidth + 16)
        let rect = Rect(x: 0, y: 0, width: state.layout.width, height: state.layout.height).centered(width: width, height: products.count + 2)
        screen.fill(rect)
        let inside = screen.box(rect, title: "Add to cart", style: Theme.focusedBorder, titleStyle: Theme.focusedBorder)
        for (index, product) in products.enumerated() where inside.y + index < inside.maxY {
            let y = inside.y + index
            let style: Style = index == cursor ? Theme.cursor : .plain
            screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style))
            screen.put(" " + product.name, x: inside.x, y: y, style: style, maxWidth: inside.width - 10)
            screen.putRight(product.unitPrice.formatted, right: inside.maxX - 1, y: y, style: style)
        }
    }
}
