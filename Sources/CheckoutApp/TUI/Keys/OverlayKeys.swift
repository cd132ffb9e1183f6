import CheckoutModel
import TerminalUI

/// Keys while something covers the screen: help, the quit question, the catalog, an exchange.
enum OverlayKeys {
    static func handle(_ state: inout AppState, _ overlay: Overlay, _ key: Key) -> [AppCommand] {
        guard let action = KeyBindings.action(for: key, in: .overlay(overlay.kind)) else { return [] }
        return perform(&state, overlay, action) ?? []
    }

    /// nil for an action `overlay` does not have.
    static func perform(_ state: inout AppState, _ overlay: Overlay, _ action: KeyAction) -> [AppCommand]? {
        switch (overlay, action) {
        case (_, .quitNow):
            state.quitRequested = true
        case (_, .closeOverlay):
            state.layout.overlay = nil
        case (.addProduct(let cursor), .move(let step)):
            let count = state.catalogProducts.count
            state.layout.overlay = .addProduct(cursor: step < 0 ? max(0, cursor + step) : min(count - 1, cursor + step))
        case (.addProduct(let cursor), .addToCart):
            return addProduct(&state, cursor: cursor)
        case (.httpDetail(let id, let scroll), .move(let step)):
            state.layout.overlay = .httpDetail(exchangeID: id, scroll: max(0, scroll + step))
        case (.httpDetail(let id, let scroll), .page(let step)):
            let page = max(1, state.layout.height - 6)
            state.layout.overlay = .httpDetail(exchangeID: id, scroll: max(0, scroll + step * page))
        case (.httpDetail(let id, _), .top):
            state.layout.overlay = .httpDetail(exchangeID: id, scroll: 0)
        default:
            return nil
        }
        return []
    }

    private static func addProduct(_ state: inout AppState, cursor: Int) -> [AppCommand] {
        state.layout.overlay = nil
        guard state.catalogProducts.indices.contains(cursor) else { return [] }
        let product = state.catalogProducts[cursor]
        let commands = CheckoutActions.editCart(&state) { cart in
            cart.add(LineItem(sku: product.sku, name: product.name, unitPrice: product.unitPrice, quantity: 1, weightGrams: product.weightGrams))
        }
        state.layout.focus = .cart
        state.layout.cartCursor = state.cart.items.firstIndex { $0.sku == product.sku } ?? state.layout.cartCursor
        return commands
    }
}
