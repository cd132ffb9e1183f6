import TerminalUI

/// The shipping methods as a radio list: the chosen one marked, the cursor highlighted.
enum ShippingView {
    static func draw(_ screen: inout Screen, _ state: AppState, paymentArea area: Rect) {
        let inside = CheckoutView.pane(&screen, state, .shipping, area, title: "Shipping")
        let methods = state.cart.shippingMethods
        let withDetails = inside.height >= methods.count * 2
        var y = inside.y
        for (index, method) in methods.enumerated() where y < inside.maxY {
            let chosen = method.id == state.cart.selectedShippingID
            let focused = index == state.layout.shippingCursor && state.layout.focus == .shipping && state.layout.overlay == nil
            let style: Style = focused ? Theme.cursor : (chosen ? .bold : .plain)
            if focused { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
            screen.put((chosen ? "(•) " : "( ) ") + method.label, x: inside.x, y: y, style: style, maxWidth: inside.width - 9)
            screen.putRight(method.amount.formatted, right: inside.maxX - 1, y: y, style: style)
            y += 1
            // With room for every detail show them all; otherwise only the chosen method's.
            if withDetails || (chosen && inside.height >= methods.count + 1), y < inside.maxY {
                screen.put("    " + method.detail, x: inside.x, y: y, style: Theme.dim, maxWidth: inside.width)
                y += 1
            }
        }
    }
}

/// The payment methods whose provider works, the selected one marked.
enum PaymentView {
    static func draw(_ screen: inout Screen, _ state: AppState, _ area: Rect) {
        let saved = state.savedMethods.count
        let inside = CheckoutView.pane(&screen, state, .payment, area, title: saved == 0 ? "Payment" : "Payment · \(saved) saved")
        guard inside.height > 0 else { return }
        let rows = state.paymentRows
        // Keep the cursor's row in view when the rows outnumber the pane's height.
        let first = max(0, min(state.layout.paymentCursor - inside.height + 1, rows.count - inside.height))
        for (offset, row) in rows.dropFirst(first).prefix(inside.height).enumerated() {
            let y = inside.y + offset
            let focused = first + offset == state.layout.paymentCursor && state.layout.focus == .payment && state.layout.overlay == nil
            switch row {
            case .method(let index):
                let method = state.paymentMethods[index]
                let chosen = index == state.selectedPaymentIndex && state.selectedSavedMethod == nil
                let style: Style = focused ? Theme.cursor : (chosen ? .bold : .plain)
                if focused { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
                let x = screen.put((chosen ? "(•) " : "( ) ") + method.label, x: inside.x, y: y, style: style, maxWidth: inside.width)
                // While its attempt is open, what the customer chooses from (Antom's banks) stands in for the detail.
                let offers = state.checkout.state.createdAttempt.flatMap { $0.provider == method.id && !$0.offers.isEmpty ? $0.offers : nil }
                if let offers {
                    // As many as fit, cut short with "…".
                    screen.put("  " + TerminalText.escapingControls(offers.joined(separator: " · ")), x: x, y: y, style: focused ? style : Theme.dim, maxWidth: inside.maxX - x)
                } else if x + 2 + method.detail.count <= inside.maxX {
                    screen.put("  " + method.detail, x: x, y: y, style: focused ? style : Theme.dim)
                }
            case .toggle(let index):
                let method = state.paymentMethods[index]
                let on = state.togglesOn.contains(method.id)
                let style: Style = focused ? Theme.cursor : Theme.dim
                if focused { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
                if let toggle = method.toggle, toggle.isChoice {
                    let value = state.toggleChoices[method.id] ?? toggle.values.first ?? ""
                    screen.put("    \(toggle.label): \(TerminalText.escapingControls(value)) (s)", x: inside.x, y: y, style: style, maxWidth: inside.width)
                } else {
                    screen.put("    [\(on ? "x" : " ")] \(method.toggle?.label ?? "") (s)", x: inside.x, y: y, style: style, maxWidth: inside.width)
                }
            case .saved(let saved):
                let chosen = state.selectedSavedMethod?.id == saved.id
                let style: Style = focused ? Theme.cursor : (chosen ? .bold : .plain)
                if focused { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
                let label = TerminalText.escapingControls(saved.label)
                screen.put("    \(chosen ? "(•)" : "( )") \(label) · saved", x: inside.x, y: y, style: style, maxWidth: inside.width)
            }
        }
    }
}
