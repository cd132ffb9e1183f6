import CheckoutModel
import TerminalUI

/// Keys while something covers the screen: help, the quit question, the catalog, an exchange.
enum OverlayKeys {
    static func handle(_ state: inout AppState, _ overlay: Overlay, _ key: Key) -> [AppCommand] {
        if key == .control("c") {
            state.quitRequested = true
            return []
        }
        switch overlay {
        case .help:
            if [.escape, .character("?"), .character("q"), .enter].contains(key) { state.layout.overlay = nil }
        case .confirmQuit:
            switch key {
            case .character("y"), .character("Y"): state.quitRequested = true
            case .character("n"), .character("N"), .escape, .character("q"): state.layout.overlay = nil
            default: break
            }
        case .addProduct(let cursor):
            return addProduct(&state, cursor: cursor, key)
        case .httpDetail(let id, let scroll):
            let page = max(1, state.layout.height - 6)
            let next: Int?
            switch key {
            case .escape, .character("q"), .enter: next = nil
            case .up, .character("k"): next = max(0, scroll - 1)
            case .down, .character("j"): next = scroll + 1
            case .pageUp: next = max(0, scroll - page)
            case .pageDown, .character(" "): next = scroll + page
            case .home: next = 0
            default: return []
            }
            state.layout.overlay = next.map { .httpDetail(exchangeID: id, scroll: $0) }
        }
        return []
    }

    private static func addProduct(_ state: inout AppState, cursor: Int, _ key: Key) -> [AppCommand] {
        let count = state.catalogProducts.count
        switch key {
        case .escape, .character("q"), .character("n"): state.layout.overlay = nil
        case .up, .character("k"): state.layout.overlay = .addProduct(cursor: max(0, cursor - 1))
        case .down, .character("j"): state.layout.overlay = .addProduct(cursor: min(count - 1, cursor + 1))
        case .enter, .character(" "), .character("+"):
            state.layout.overlay = nil
            guard state.catalogProducts.indices.contains(cursor) else { return [] }
            let product = state.catalogProducts[cursor]
            let commands = CheckoutActions.editCart(&state) { cart in
                cart.add(LineItem(sku: product.sku, name: product.name, unitPrice: product.unitPrice, quantity: 1, weightGrams: product.weightGrams))
            }
            state.layout.focus = .cart
            state.layout.cartCursor = state.cart.items.firstIndex { $0.sku == product.sku } ?? state.layout.cartCursor
            return commands
        default: break
        }
        return []
    }
}
