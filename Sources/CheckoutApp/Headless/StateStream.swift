import PaymentFlow

/// What a headless run prints: SDK states and the phases around them.
enum FlowEvent: Sendable {
    case state(CheckoutState)
    case phase(CheckoutPhase)
    /// A provider's notice (a webhook), in the order it arrived among the states.
    case notice(ProviderNotice)
}

/// An observer that turns state changes and phases into one ordered async sequence.
final class StateStream: CheckoutObserver {
    let events: AsyncStream<FlowEvent>
    private let continuation: AsyncStream<FlowEvent>.Continuation

    init() {
        (events, continuation) = AsyncStream.makeStream(of: FlowEvent.self)
    }

    func stateDidChange(to state: CheckoutState) { continuation.yield(.state(state)) }

    func phaseDidChange(to phase: CheckoutPhase) { continuation.yield(.phase(phase)) }

    func notice(_ notice: ProviderNotice) { continuation.yield(.notice(notice)) }

    func finish() { continuation.finish() }
}
