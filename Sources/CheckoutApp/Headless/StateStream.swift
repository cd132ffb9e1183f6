import PaymentFlow

/// An observer that turns state changes into an async sequence for headless runs.
final class StateStream: CashAppPayObserver {
    let states: AsyncStream<CashAppPayState>
    private let continuation: AsyncStream<CashAppPayState>.Continuation

    init() {
        (states, continuation) = AsyncStream.makeStream(of: CashAppPayState.self)
    }

    func stateDidChange(to state: CashAppPayState) { continuation.yield(state) }

    func finish() { continuation.finish() }
}
