import Foundation
import PaymentFlow

/// After an apiError, the methods that send the customer to the same app (every Cash App Pay
/// method, read from the descriptors' `customerApp`) say "temporarily unavailable" and cannot
/// be chosen until the pause passes, `r` starts a new checkout, or the provider's health check
/// answers. Time comes in as the screen's ticks; the check is a session command: nothing waits.
enum MethodPause {
    /// Hides the failed method's family, when one of them asks for a pause after apiError.
    static func hide(_ state: inout AppState) {
        let failed = state.checkout.provider ?? state.selectedPaymentMethod
        let family = state.paymentMethods.filter { $0.customerApp == failed.customerApp }
        guard let pause = family.compactMap(\.apiErrorPause).max(), pause > 0 else { return }
        state.unavailable = UnavailableMethods(
            methodIDs: Set(family.map(\.id)), provider: failed.id, until: state.now.addingTimeInterval(pause),
            nextHealthCheck: state.now.addingTimeInterval(UnavailableMethods.healthCheckInterval))
    }

    /// The pause is over, or it is time to ask the provider again.
    static func tick(_ state: inout AppState, _ now: Date) -> [AppCommand] {
        guard let hidden = state.unavailable else { return [] }
        if now >= hidden.until {
            show(&state, because: "the pause after apiError is over")
            return []
        }
        guard let next = hidden.nextHealthCheck, now >= next else { return [] }
        state.unavailable?.nextHealthCheck = nil
        return [.session(.checkHealth(provider: hidden.provider))]
    }

    static func healthChecked(_ state: inout AppState, provider: String, healthy: Bool?) -> [AppCommand] {
        guard let hidden = state.unavailable, hidden.provider == provider else { return [] }
        switch healthy {
        case true?:
            show(&state, because: "it answers again")
            return CheckoutActions.createOnLoad(&state)
        case false?:
            state.unavailable?.nextHealthCheck = state.now.addingTimeInterval(UnavailableMethods.healthCheckInterval)
        case nil:
            break  // no cheap call to ask (a real host): the pause decides
        }
        return []
    }

    /// Brings the hidden methods back (`r` calls it with no reason: the restart says enough).
    static func show(_ state: inout AppState, because reason: String? = nil) {
        guard let hidden = state.unavailable else { return }
        state.unavailable = nil
        guard let reason else { return }
        let labels = state.paymentMethods.filter { hidden.methodIDs.contains($0.id) }.map(\.label)
        state.inform("\(labels.joined(separator: ", ")): available again (\(reason)).")
    }

    /// Why a hidden method cannot be chosen, and when it comes back.
    static func refusal(_ state: AppState, _ method: PaymentMethod) -> String {
        let left = max(0, state.unavailable.map { $0.until.timeIntervalSince(state.now) } ?? 0)
        return "\(method.label) is temporarily unavailable after an apiError; back in \(CheckoutView.clock(left.rounded(.up))), or press r."
    }
}
