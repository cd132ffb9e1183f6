import TerminalUI

/// The payment pane: move between methods, a method's toggle and the saved methods beneath
/// it; Enter authorizes a ready request, or chooses the row for the next payment (not while
/// one is in flight); `s` flips the chosen method's toggle, `d` deletes a saved method.
enum PaymentKeys {
    static func handle(_ state: inout AppState, _ key: Key) -> [AppCommand] {
        guard let action = KeyBindings.action(for: key, in: .pane(.payment)) else { return [] }
        return perform(&state, action) ?? []
    }

    /// nil for an action the payment pane does not have.
    static func perform(_ state: inout AppState, _ action: KeyAction) -> [AppCommand]? {
        switch action {
        case .move(let step):
            state.layout.paymentCursor = clampedCursor(state.layout.paymentCursor, by: step, count: state.paymentRows.count)
            return []
        case .choose:
            return choose(&state)
        case .switchOption:
            return flipToggle(&state)
        case .deleteSaved:
            return deleteSaved(&state)
        default:
            return nil
        }
    }

    private static func deleteSaved(_ state: inout AppState) -> [AppCommand] {
        guard case .saved(let method)? = state.paymentRowUnderCursor else {
            state.warn("Move to a saved method to delete it.")
            return []
        }
        guard state.checkout.idle || state.checkout.ended else {
            state.warn("Delete saved methods when no payment is in flight.")
            return []
        }
        return [.deleteSavedMethod(method)]
    }

    /// Authorizes a ready request, or chooses the row under the cursor for the next payment.
    static func choose(_ state: inout AppState) -> [AppCommand] {
        // A request made on load and not yet authorized is dropped for another row (never charged: the customer never saw it).
        let dropping = (state.checkout.untouchedOnLoad || state.checkout.onLoadFailed) && !underCursorIsChosen(state)
        if !dropping, case .readyToAuthorize = state.checkout.state { return CheckoutActions.pay(&state) }
        guard dropping || state.checkout.idle || state.checkout.ended else {
            state.warn("The payment method is fixed while a payment is in flight.")
            return []
        }
        let chosen = (state.selectedPaymentIndex, state.selectedSavedMethodID)
        let commands = select(&state)
        guard dropping, chosen != (state.selectedPaymentIndex, state.selectedSavedMethodID) else { return commands }
        // The screen starts over at once (p now pays with the new choice); the session's reset goes first.
        state.checkout.enter(.notStarted, at: state.now)
        state.checkout.awaitingDropReset = true
        return [.reset] + commands + CheckoutActions.createOnLoad(&state)
    }

    /// The row under the cursor is the chosen method (or its switch).
    private static func underCursorIsChosen(_ state: AppState) -> Bool {
        switch state.paymentRowUnderCursor {
        case .method(let index)?: index == state.selectedPaymentIndex && state.selectedSavedMethod == nil
        case .toggle?, nil: true
        case .saved(let method)?: state.selectedSavedMethod?.id == method.id
        }
    }

    /// Chooses the row under the cursor for the next payment.
    private static func select(_ state: inout AppState) -> [AppCommand] {
        switch state.paymentRowUnderCursor {
        case .method(let index)?:
            guard !state.isUnavailable(state.paymentMethods[index].id) else {
                state.warn(MethodPause.refusal(state, state.paymentMethods[index]))
                return []
            }
            let changed = index != state.selectedPaymentIndex
            state.selectedPaymentIndex = index
            state.selectedSavedMethodID = nil
            // Where the cursor now points once the chosen method's toggle row appears or goes.
            state.layout.paymentCursor = state.paymentRows.firstIndex(of: .method(index)) ?? state.layout.paymentCursor
            guard changed else { return [] }
            // The newly chosen method's request is made at once when it creates on load.
            return [.loadSavedMethods(provider: state.paymentMethods[index].id, reason: nil)] + CheckoutActions.createOnLoad(&state)
        case .toggle?:
            return flipToggle(&state)
        case .saved(let method)?:
            state.selectedPaymentIndex = state.paymentMethods.firstIndex { $0.id == method.provider } ?? state.selectedPaymentIndex
            state.selectedSavedMethodID = method.id
            // A saved method is stored already: its provider's store toggle goes off.
            state.togglesOn.remove(method.provider)
            state.layout.paymentCursor = state.paymentRows.firstIndex(of: .saved(method)) ?? state.layout.paymentCursor
            return []
        case nil:
            return []
        }
    }

    private static func flipToggle(_ state: inout AppState) -> [AppCommand] {
        let method = state.selectedPaymentMethod
        guard method.toggle != nil else {
            state.warn("\(method.label) has nothing to switch.")
            return []
        }
        // A request made on load follows the switch (updateCustomerRequest) until it is authorized.
        let followsOnLoad = state.checkout.untouchedOnLoad && state.checkout.provider?.id == method.id
        if case .readyToAuthorize = state.checkout.state {} else if followsOnLoad {
            state.warn("Wait: the request is \(state.checkout.state.name).")
            return []
        }
        guard followsOnLoad || state.checkout.idle || state.checkout.ended else {
            state.warn("The payment's options are fixed while it is in flight.")
            return []
        }
        if let toggle = method.toggle, toggle.isChoice {
            let next = toggle.value(after: state.toggleChoices[method.id]) ?? ""
            state.toggleChoices[method.id] = next
            state.inform("\(method.shortName): \(toggle.label) \(next) for the next payment")
        } else if state.togglesOn.contains(method.id) { state.togglesOn.remove(method.id) } else { state.togglesOn.insert(method.id) }
        state.selectedSavedMethodID = nil
        guard followsOnLoad, let order = CheckoutActions.order(state) else { return [] }
        return [.changeOrder(order)]
    }
}
