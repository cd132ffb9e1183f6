import CheckoutModel
import TerminalUI

/// The cart pane: move between items; quantities change from anywhere with + and -.
enum CartKeys {
    static func handle(_ state: inout AppState, _ key: Key) -> [AppCommand] {
        guard let action = KeyBindings.action(for: key, in: .pane(.cart)) else { return [] }
        return perform(&state, action) ?? []
    }

    /// nil for an action the cart pane does not have.
    static func perform(_ state: inout AppState, _ action: KeyAction) -> [AppCommand]? {
        guard case .move(let step) = action else { return nil }
        state.layout.cartCursor = clampedCursor(state.layout.cartCursor, by: step, count: state.cart.items.count)
        return []
    }

    static func changeQuantity(_ state: inout AppState, by step: Int) -> [AppCommand] {
        guard state.cart.items.indices.contains(state.layout.cartCursor) else { return [] }
        let item = state.cart.items[state.layout.cartCursor]
        if item.quantity + step == 0, state.cart.items.count == 1 {
            state.warn("\(item.name) is the last item; a cart cannot be empty.")
            return []
        }
        let commands = CheckoutActions.editCart(&state) { cart in try? cart.setQuantity(item.quantity + step, forSKU: item.sku) }
        state.layout.cartCursor = min(state.layout.cartCursor, state.cart.items.count - 1)
        return commands
    }
}
