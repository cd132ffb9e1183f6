import PaymentFlow

extension CheckoutPhase {
    /// The phase that remains once the checkout enters `state`: a provider's steps before its
    /// request are over once the request is being written, and a step at the terminal (the
    /// wallet's processing) once the customer has decided.
    static func remaining(_ phase: CheckoutPhase?, entering state: CheckoutState) -> CheckoutPhase? {
        guard case .step? = phase else { return phase }
        switch state {
        case .creatingRequest, .updatingRequest, .approved, .declined: return nil
        default: return phase
        }
    }
}
