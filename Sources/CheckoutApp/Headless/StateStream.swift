import PaymentFlow

/// What a headless run prints: SDK states and the phases around them.
enum FlowEvent: Sendable {
    case state(CheckoutState)
    case phase(CheckoutPhase)
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

    func finish() { continuation.finish() }
}
