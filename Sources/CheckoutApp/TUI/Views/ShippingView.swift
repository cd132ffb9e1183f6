import TerminalUI

/// The shipping methods as a radio list: the chosen one marked, the cursor highlighted.
enum ShippingView {
    static func draw(_ screen: inout Screen, _ state: AppState, paymentArea area: Rect) {
        let inside = CheckoutView.pane(&screen, state, .shipping, area, title: "Shipping")
        let methods = state.cart.shippingMethods
        for line in lines(state, inside: inside) {
            let (index, y) = (line.method, line.y)
            let method = methods[index]
            let chosen = method.id == state.cart.selectedShippingID
            let focused = index == state.layout.shippingCursor && state.layout.focus == .shipping && state.layout.overlay == nil
            let style: Style = focused ? Theme.cursor : (chosen ? .bold : .plain)
            if focused { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
            screen.put((chosen ? "(•) " : "( ) ") + method.label, x: inside.x, y: y, style: style, maxWidth: inside.width - 9)
            screen.putRight(method.amount.formatted, right: inside.maxX - 1, y: y, style: style)
            if line.detail { screen.put("    " + method.detail, x: inside.x, y: y + 1, style: Theme.dim, maxWidth: inside.width) }
        }
    }

    /// Each method's row inside the pane and whether its detail line follows: what `draw` draws
    /// and a click is tested against.
    static func lines(_ state: AppState, inside: Rect) -> [(method: Int, y: Int, detail: Bool)] {
        let methods = state.cart.shippingMethods
        let withDetails = inside.height >= methods.count * 2
        var lines: [(method: Int, y: Int, detail: Bool)] = []
        var y = inside.y
        for (index, method) in methods.enumerated() where y < inside.maxY {
            let chosen = method.id == state.cart.selectedShippingID
            // With room for every detail show them all; otherwise only the chosen method's.
            let detail = (withDetails || (chosen && inside.height >= methods.count + 1)) && y + 1 < inside.maxY
            lines.append((index, y, detail))
            y += detail ? 2 : 1
        }
        return lines
    }

    /// The method whose row (or detail line) is row `y` of the pane in `area`.
    static func method(atRow y: Int, _ state: AppState, _ area: Rect) -> Int? {
        lines(state, inside: area.inset(by: 1)).first { y == $0.y || ($0.detail && y == $0.y + 1) }?.method
    }
}

/// The payment methods whose provider works, the selected one marked.
enum PaymentView {
    private static let unavailableWord = "  unavailable"

    static func draw(_ screen: inout Screen, _ state: AppState, _ area: Rect) {
        let saved = state.savedMethods.count
        let inside = CheckoutView.pane(&screen, state, .payment, area, title: saved == 0 ? "Payment" : "Payment · \(saved) saved")
        guard inside.height > 0 else { return }
        let rows = state.paymentRows
        let first = firstShownRow(state, rows: inside.height)
        for (offset, row) in rows.dropFirst(first).prefix(inside.height).enumerated() {
            let y = inside.y + offset
            let focused = first + offset == state.layout.paymentCursor && state.layout.focus == .payment && state.layout.overlay == nil
            switch row {
            case .method(let index):
                let method = state.paymentMethods[index]
                let chosen = index == state.selectedPaymentIndex && state.selectedSavedMethod == nil
                let style: Style = focused ? Theme.cursor : (chosen ? .bold : .plain)
                if focused { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style)) }
                let unavailable = state.isUnavailable(method.id)
                let label = (chosen ? "(•) " : "( ) ") + method.label
                // An unavailable method keeps the whole word: its label is cut short instead.
                let labelWidth = unavailable ? max(min(inside.width, 8), inside.width - Self.unavailableWord.count) : inside.width
                let x = screen.put(label, x: inside.x, y: y, style: style, maxWidth: labelWidth)
                // While its attempt is open, what the customer chooses from (Antom's banks) stands in for the detail.
                let offers = state.checkout.state.createdAttempt.flatMap { $0.provider == method.id && !$0.offers.isEmpty ? $0.offers : nil }
                if unavailable {
                    // After an apiError, until the pause passes (or r, or the provider answers again).
                    // The whole phrase where it fits, else the short word.
                    let phrase = x + 25 <= inside.maxX ? "  temporarily unavailable" : Self.unavailableWord
                    screen.put(phrase, x: x, y: y, style: focused ? style : Theme.warning, maxWidth: inside.maxX - x)
                } else if let toggle = method.toggle, toggle.inline, index == state.selectedPaymentIndex, Self.inlineToggleShown(state) {
                    let on = state.togglesOn.contains(method.id)
                    // The hints line names its key (s).
                    screen.put("  [\(on ? "x" : " ")] \(toggle.label)", x: x, y: y, style: focused ? style : Theme.dim, maxWidth: inside.maxX - x)
                } else if let offers {
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

    /// A switch on the method's own row shows before the customer is asked (an ended checkout
    /// shows its outcome; r starts the next one, switch and all).
    static func inlineToggleShown(_ state: AppState) -> Bool {
        state.checkout.idle || state.checkout.untouchedOnLoad
    }

    /// The first row shown: the cursor's row stays in view when the rows outnumber the pane's height.
    static func firstShownRow(_ state: AppState, rows height: Int) -> Int {
        max(0, min(state.layout.paymentCursor - height + 1, state.paymentRows.count - height))
    }

    /// The index in `paymentRows` of the row drawn on row `y` of the pane in `area`, if any.
    static func row(atRow y: Int, _ state: AppState, _ area: Rect) -> Int? {
        let inside = area.inset(by: 1)
        guard y >= inside.y, y < inside.maxY else { return nil }
        let index = firstShownRow(state, rows: inside.height) + (y - inside.y)
        return state.paymentRows.indices.contains(index) ? index : nil
    }
}
