import TerminalUI

/// Keys that work whichever pane has the focus.
enum GlobalKeys {
    /// The commands for `key`, or nil when it is the focused pane's to handle.
    static func handle(_ state: inout AppState, _ key: Key) -> [AppCommand]? {
        guard let action = KeyBindings.action(for: key, in: .screen) else { return nil }
        return perform(&state, action)
    }

    /// nil for an action that is not the whole screen's.
    static func perform(_ state: inout AppState, _ action: KeyAction) -> [AppCommand]? {
        switch action {
        case .quitNow:
            state.quitRequested = true
        case .quit:
            if state.checkout.inFlight { state.layout.overlay = .confirmQuit } else { state.quitRequested = true }
        case .showHelp:
            state.layout.overlay = .help
        case .nextPane:
            moveFocus(&state, by: 1)
        case .previousPane:
            moveFocus(&state, by: -1)
        case .changeQuantity(let step):
            return CartKeys.changeQuantity(&state, by: step)
        case .pay:
            return CheckoutActions.pay(&state)
        case .approve:
            return CheckoutActions.actAsCustomer(&state, .approve)
        case .decline:
            return CheckoutActions.actAsCustomer(&state, .decline)
        case .restart:
            return CheckoutActions.restart(&state)
        case .addProduct:
            guard state.checkout.cartEditable else {
                state.warn(state.checkout.ended ? CheckoutActions.endedNotice : "The cart is locked while the customer is paying.")
                return []
            }
            state.layout.overlay = .addProduct(cursor: 0)
        case .toggleCode:
            guard state.checkout.authorizationCode != nil else {
                state.warn("There is no QR code now: it shows while the customer must approve.")
                return []
            }
            state.layout.codeHidden.toggle()
        case .openLink:
            return LinkKeys.open(&state)
        case .copyLink:
            return LinkKeys.copy(&state)
        case .toggleLog:
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
