import PaymentFlow

/// What a headless run prints: SDK states and the phases around them.
enum FlowEvent: Sendable {
    case state(CheckoutState)
    case phase(CheckoutPhase)
    /// A provider's notice (a webhook), in the order it arrived among the states.
    case notice(ProviderNotice)
}

/// What a headless run follows, in one order: what it prints, the provider's prompts, and the
/// driver's delays as they end.
enum HeadlessInput: Sendable {
    case flow(FlowEvent)
    case prompt(CustomerPrompt?)
    case timer(DriverTimer)
}

/// An observer that turns state changes, phases, notices, prompts and ended delays into one
/// ordered async sequence.
final class StateStream: CheckoutObserver {
    let inputs: AsyncStream<HeadlessInput>
    private let continuation: AsyncStream<HeadlessInput>.Continuation

    init() {
        (inputs, continuation) = AsyncStream.makeStream(of: HeadlessInput.self)
    }

    func stateDidChange(to state: CheckoutState) { continuation.yield(.flow(.state(state))) }

    func phaseDidChange(to phase: CheckoutPhase) { continuation.yield(.flow(.phase(phase))) }

    func notice(_ notice: ProviderNotice) { continuation.yield(.flow(.notice(notice))) }

    func prompt(_ prompt: CustomerPrompt?) { continuation.yield(.prompt(prompt)) }

    func timerFired(_ timer: DriverTimer) { continuation.yield(.timer(timer)) }

    func finish() { continuation.finish() }
}
