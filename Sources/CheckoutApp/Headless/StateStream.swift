import PaymentFlow

/// What a headless run prints: SDK states and, for Afterpay, the phases around them.
enum FlowEvent: Sendable {
    case state(CashAppPayState)
    case phase(CheckoutPhase)
}

/// An observer that turns state changes (and reported phases) into one ordered async sequence.
final class StateStream: CashAppPayObserver {
    let events: AsyncStream<FlowEvent>
    private let continuation: AsyncStream<FlowEvent>.Continuation

    init() {
        (events, continuation) = AsyncStream.makeStream(of: FlowEvent.self)
    }

    func stateDidChange(to state: CashAppPayState) { continuation.yield(.state(state)) }

    func phaseDidChange(to phase: CheckoutPhase) { continuation.yield(.phase(phase)) }

    func finish() { continuation.finish() }
}
