import TerminalUI

/// The shipping pane: move between methods; Enter picks one and the total changes at once.
enum ShippingKeys {
    static func handle(_ state: inout AppState, _ key: Key) -> [AppCommand] {
        guard let action = KeyBindings.action(for: key, in: .pane(.shipping)) else { return [] }
        return perform(&state, action) ?? []
    }

    /// nil for an action the shipping pane does not have.
    static func perform(_ state: inout AppState, _ action: KeyAction) -> [AppCommand]? {
        switch action {
        case .move(let step):
            state.layout.shippingCursor = clampedCursor(state.layout.shippingCursor, by: step, count: state.cart.shippingMethods.count)
            return []
        case .choose:
            return choose(&state)
        default:
            return nil
        }
    }

    /// Picks the method under the cursor.
    static func choose(_ state: inout AppState) -> [AppCommand] {
        guard state.cart.shippingMethods.indices.contains(state.layout.shippingCursor) else { return [] }
        let method = state.cart.shippingMethods[state.layout.shippingCursor]
        guard method.id != state.cart.selectedShippingID else { return [] }
        return CheckoutActions.editCart(&state) { cart in try? cart.selectShipping(id: method.id) }
    }
}
