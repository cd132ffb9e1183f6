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
        let inside = CheckoutView.pane(&screen, state, .payment, area, title: "Payment")
        for (index, method) in state.paymentMethods.enumerated() where inside.y + index < inside.maxY {
            let y = inside.y + index
            let chosen = index == state.selectedPaymentIndex
            let focused = index == state.layout.paymentCursor && state.layout.focus == .payment && state.layout.overlay == nil
            let style: Style = focused ? Theme.cursor : (chosen ? .bold : .plain)
            if focused { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
            let x = screen.put((chosen ? "(•) " : "( ) ") + method.label, x: inside.x, y: y, style: style, maxWidth: inside.width)
            if x + 2 + method.detail.count <= inside.maxX {
                screen.put("  " + method.detail, x: x, y: y, style: focused ? style : Theme.dim)
            }
        }
    }
}
