import TerminalUI

/// Clicks and the wheel. A click focuses the pane under it and moves that pane's cursor to the
/// row clicked; a click on the row already under the cursor chooses it as Enter does (a shipping
/// or payment method, an HTTP exchange to open) but never pays. The wheel moves the list under
/// it and scrolls an open HTTP exchange. Where is decided by `PaneGeometry` and each view's rows,
/// the same arithmetic that drew the frame.
enum MouseActions {
    /// Rows per wheel notch in the long lists (the cart, the HTTP log, an exchange's text).
    static let wheelRows = 3

    static func handle(_ state: inout AppState, _ event: MouseEvent) -> [AppCommand] {
        if let overlay = state.layout.overlay { return onOverlay(&state, overlay, event) }
        // A provider's prompt covers the panes and is answered by its keys.
        guard event.action != .release, state.prompt == nil, let geometry = PaneGeometry(state),
            let pane = geometry.pane(atX: event.x, y: event.y), let area = geometry.rect(of: pane)
        else { return [] }
        switch event.action {
        case .wheelUp: return wheel(&state, pane, by: -1)
        case .wheelDown: return wheel(&state, pane, by: 1)
        case .press: return click(&state, pane, area, y: event.y)
        case .release: return []
        }
    }

    private static func click(_ state: inout AppState, _ pane: Pane, _ area: Rect, y: Int) -> [AppCommand] {
        let wasFocused = state.layout.focus == pane
        state.layout.focus = pane
        switch pane {
        case .cart:
            if let index = CartView.item(atRow: y, state, area) { state.layout.cartCursor = index }
            return []
        case .shipping:
            guard let index = ShippingView.method(atRow: y, state, area) else { return [] }
            let again = wasFocused && index == state.layout.shippingCursor
            state.layout.shippingCursor = index
            return again ? ShippingKeys.choose(&state) : []
        case .payment:
            guard let row = PaymentView.row(atRow: y, state, area) else { return [] }
            let again = wasFocused && row == state.layout.paymentCursor
            state.layout.paymentCursor = row
            // Enter there authorizes a ready request; a click only ever chooses a method.
            if case .readyToAuthorize = state.checkout.state { return [] }
            return again ? PaymentKeys.choose(&state) : []
        case .log:
            guard let index = HTTPLogView.exchange(atRow: y, state, area) else { return [] }
            let again = wasFocused && index == (state.layout.logCursor ?? state.exchanges.count - 1)
            state.layout.logCursor = index
            return again ? LogKeys.choose(&state) : []
        }
    }

    /// The wheel moves the list under the pointer (and focuses it, where its cursor shows).
    private static func wheel(_ state: inout AppState, _ pane: Pane, by direction: Int) -> [AppCommand] {
        state.layout.focus = pane
        switch pane {
        case .cart:
            state.layout.cartCursor = clampedCursor(state.layout.cartCursor, by: direction * wheelRows, count: state.cart.items.count)
        case .shipping:
            state.layout.shippingCursor = clampedCursor(state.layout.shippingCursor, by: direction, count: state.cart.shippingMethods.count)
        case .payment:
            state.layout.paymentCursor = clampedCursor(state.layout.paymentCursor, by: direction, count: state.paymentRows.count)
        case .log:
            guard !state.exchanges.isEmpty else { return [] }
            let cursor = state.layout.logCursor ?? state.exchanges.count - 1
            state.layout.logCursor = clampedCursor(cursor, by: direction * wheelRows, count: state.exchanges.count)
        }
        return []
    }

    /// Over an overlay: the wheel scrolls an open exchange, a click closes the help; the quit
    /// question and the catalog wait for their keys.
    private static func onOverlay(_ state: inout AppState, _ overlay: Overlay, _ event: MouseEvent) -> [AppCommand] {
        switch (overlay, event.action) {
        case (.httpDetail(let id, let scroll), .wheelUp):
            state.layout.overlay = .httpDetail(exchangeID: id, scroll: max(0, min(scroll, HTTPDetailView.lastTop(state, exchangeID: id)) - wheelRows))
        case (.httpDetail(let id, let scroll), .wheelDown):
            state.layout.overlay = .httpDetail(exchangeID: id, scroll: min(HTTPDetailView.lastTop(state, exchangeID: id), scroll + wheelRows))
        case (.help, .press):
            state.layout.overlay = nil
        default:
            break
        }
        return []
    }
}
