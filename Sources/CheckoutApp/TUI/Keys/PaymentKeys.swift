import TerminalUI

/// The payment pane: move between methods; Enter authorizes a ready request, or chooses the
/// method for the next payment (not while one is in flight).
enum PaymentKeys {
    static func handle(_ state: inout AppState, _ key: Key) -> [AppCommand] {
        if let step = key.cursorStep {
            state.layout.paymentCursor = clampedCursor(state.layout.paymentCursor, by: step, count: state.paymentMethods.count)
            return []
        }
        guard key.choosesItem else { return [] }
        if case .readyToAuthorize = state.checkout.state { return CheckoutActions.pay(&state) }
        guard state.checkout.idle || state.checkout.ended else {
            state.warn("The payment method is fixed while a payment is in flight.")
            return []
        }
        state.selectedPaymentIndex = state.layout.paymentCursor
        return []
    }
}
