import TerminalUI

/// The shipping pane: move between methods; Enter picks one and the total changes at once.
enum ShippingKeys {
    static func handle(_ state: inout AppState, _ key: Key) -> [AppCommand] {
        if let step = key.cursorStep {
            state.layout.shippingCursor = clampedCursor(state.layout.shippingCursor, by: step, count: state.cart.shippingMethods.count)
            return []
        }
        guard key.choosesItem, state.cart.shippingMethods.indices.contains(state.layout.shippingCursor) else { return [] }
        let method = state.cart.shippingMethods[state.layout.shippingCursor]
        guard method.id != state.cart.selectedShippingID else { return [] }
        return CheckoutActions.editCart(&state) { cart in try? cart.selectShipping(id: method.id) }
    }
}
