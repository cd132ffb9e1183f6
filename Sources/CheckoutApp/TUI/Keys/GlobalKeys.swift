import TerminalUI

/// Keys that work whichever pane has the focus.
enum GlobalKeys {
    /// The commands for `key`, or nil when it is the focused pane's to handle.
    static func handle(_ state: inout AppState, _ key: Key) -> [AppCommand]? {
        switch key {
        case .control("c"):
            state.quitRequested = true
        case .character("q"):
            if state.checkout.inFlight { state.layout.overlay = .confirmQuit } else { state.quitRequested = true }
        case .character("?"):
            state.layout.overlay = .help
        case .tab:
            moveFocus(&state, by: 1)
        case .backTab:
            moveFocus(&state, by: -1)
        case .character("+"), .character("="):
            return CartKeys.changeQuantity(&state, by: 1)
        case .character("-"), .character("_"):
            return CartKeys.changeQuantity(&state, by: -1)
        case .character("p"):
            return CheckoutActions.pay(&state)
        case .character("a"):
            return CheckoutActions.actAsCustomer(&state, .approve)
        case .character("x"):
            return CheckoutActions.actAsCustomer(&state, .decline)
        case .character("r"):
            return CheckoutActions.restart(&state)
        case .character("n"):
            guard state.checkout.cartEditable else {
                state.warn(state.checkout.ended ? CheckoutActions.endedNotice : "The cart is locked while the customer is paying.")
                return []
            }
            state.layout.overlay = .addProduct(cursor: 0)
        case .character("v"):
            guard state.checkout.authorizationCode != nil else {
                state.warn("There is no QR code now: it shows while the customer must approve.")
                return []
            }
            state.layout.codeHidden.toggle()
        case .character("o"):
            return LinkKeys.open(&state)
        case .character("y"):
            return LinkKeys.copy(&state)
        case .character("l"):
            state.layout.logVisible.toggle()
            if !state.layout.logVisible, state.layout.focus == .log { state.layout.focus = .cart }
        default:
            return nil
        }
        return []
    }

    private static func moveFocus(_ state: inout AppState, by step: Int) {
        let panes = state.visiblePanes
        let index = panes.firstIndex(of: state.layout.focus) ?? 0
        state.layout.focus = panes[(index + step + panes.count) % panes.count]
    }
}

/// Moves a list cursor by `step`, stopping at the list's ends.
func clampedCursor(_ value: Int, by step: Int, count: Int) -> Int {
    max(0, min(count - 1, value + step))
}

extension Key {
    /// ↑ or k: -1; ↓ or j: +1; anything else nil.
    var cursorStep: Int? {
        switch self {
        case .up, .character("k"): -1
        case .down, .character("j"): 1
        default: nil
        }
    }

    /// Enter or space: choose what the cursor is on.
    var choosesItem: Bool { self == .enter || self == .character(" ") }
}
