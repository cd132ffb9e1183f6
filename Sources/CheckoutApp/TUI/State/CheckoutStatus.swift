import Foundation
import PaymentFlow

/// The payment as the screen follows it: the SDK state and phase the coordinator reports,
/// the provider fixed when paying, and the times the banner shows.
public struct CheckoutStatus: Hashable, Sendable {
    public var state: CheckoutState = .notStarted
    public var phase: CheckoutPhase?
    /// The provider paid with: fixed when the user pays, whatever the payment pane shows later.
    public var provider: PaymentMethod?
    public var stateEnteredAt: Date
    public var flowStartedAt: Date?
    /// When the settlement ended (completed or failed), for providers that settle after `approved`.
    public var settledAt: Date?
    /// The authorization link as a QR code while the customer must act.
    public var authorizationCode: AuthorizationCode?
    /// The request was created as the checkout loaded and nobody has authorized it yet: it may
    /// be dropped (it was never shown to the customer, so nothing is charged) for another method.
    public var createdOnLoad = false
    /// A request made on load was dropped for another method: its last states may still be on
    /// their way, and are not this checkout's, until the session's reset says notStarted.
    public var awaitingDropReset = false

    public init(enteredAt: Date) {
        stateEnteredAt = enteredAt
    }

    /// A request exists and is not decided: quitting would abandon it.
    public var inFlight: Bool { state.kind == .inProgress && !untouchedOnLoad }

    /// A request made on load ended in an error before anyone authorized it: choosing another
    /// method starts over with it, as if nothing had been tried.
    public var onLoadFailed: Bool { createdOnLoad && state.kind == .error }

    /// A request made as the checkout loaded, not yet authorized (creating, updating or ready).
    public var untouchedOnLoad: Bool {
        guard createdOnLoad, phase == nil else { return false }
        switch state {
        // notStarted: the create is on its way and its first state not back yet.
        case .notStarted, .creatingRequest, .updatingRequest, .readyToAuthorize: return true
        default: return false
        }
    }

    /// A provider step runs outside the SDK states (Afterpay's token, signing, validating…).
    public var busyWithStep: Bool {
        if case .step? = phase { return true }
        return false
    }

    /// Nothing is going on: a payment may start and the payment method may change.
    public var idle: Bool { state == .notStarted && phase == nil }

    /// The cart may change now: before paying, or before authorizing (which updates the
    /// request), but not while a provider step runs.
    public var cartEditable: Bool {
        switch state {
        case .notStarted, .readyToAuthorize: phase == nil
        // A request made on load follows the cart from the start.
        case .creatingRequest, .updatingRequest: untouchedOnLoad
        default: false
        }
    }

    /// Where the checkout's clock stops: the settlement's end, else the last state's start
    /// (a tip and the completion after `approved` still count).
    public var endedAt: Date { settledAt ?? stateEnteredAt }

    /// Nothing more will happen without a new checkout.
    public var ended: Bool { state.ends(with: phase, settles: provider?.settles == true) }

    /// The SDK state changed: its time, and the phase a new request ends.
    mutating func enter(_ next: CheckoutState, at now: Date) {
        state = next
        stateEnteredAt = now
        switch next {
        case .notStarted:
            flowStartedAt = nil
            settledAt = nil
            phase = nil
            provider = nil
            createdOnLoad = false
        case .creatingRequest, .updatingRequest:
            if flowStartedAt == nil { flowStartedAt = now }
        default:
            break
        }
        phase = CheckoutPhase.remaining(phase, entering: next)
        AuthorizationCode.refresh(&authorizationCode, for: state)
    }
}
