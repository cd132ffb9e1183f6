import Foundation
import ProviderClients
import ProviderWire

/// Runs the checkout: feeds events to `CashAppPayMachine`, performs the effects it returns
/// (HTTP calls, the poll timer) in tasks, and notifies observers of every transition in order.
public actor CashAppPay {
    public struct Timing: Sendable {
        public var pollInterval: Duration
        /// Retrieval retries while refreshing (STATES.md: 3 tries with back-off).
        public var refreshRetry: RetryPolicy

        public init(pollInterval: Duration = .seconds(1), refreshRetry: RetryPolicy = .standard.withMaxAttempts(3)) {
            self.pollInterval = pollInterval
            self.refreshRetry = refreshRetry
        }
    }

    private var machine = CashAppPayMachine()
    private var observers = ObserverList()
    private var pollTask: Task<Void, Never>?
    /// Bumped by every new flow so results of an abandoned one are dropped.
    private var flow = 0
    private let client: any CustomerRequestAPI
    private let timing: Timing
    private let now: @Sendable () -> Date
    private let sleep: Sleeper

    /// The last authorization link handed out, for the banner and QR code.
    public private(set) var authorizationURL: String?

    public init(
        client: any CustomerRequestAPI,
        timing: Timing = Timing(),
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping Sleeper = realSleeper
    ) {
        self.client = client
        self.timing = timing
        self.now = now
        self.sleep = sleep
    }

    public var state: CashAppPayState { machine.state }

    public func addObserver(_ observer: any CashAppPayObserver) { observers.add(observer) }
    public func removeObserver(_ observer: any CashAppPayObserver) { observers.remove(observer) }

    public func createCustomerRequest(params: CreateCustomerRequestParams) {
        if machine.state.isTerminal { send(.reset) }
        flow += 1
        send(.create(params))
    }

    public func updateCustomerRequest(with params: UpdateCustomerRequestParams) { send(.update(params)) }
    public func authorizeCustomerRequest() { send(.authorize(now: now())) }
    public func customerReturned() { send(.customerReturned) }
    public func authorizationTimedOut(seconds: Int) { send(.authorizationTimedOut(seconds: seconds)) }
    /// Ends a flow whose provider steps before creating or updating the request failed
    /// (Afterpay's token or signing).
    public func failBeforeRequest(_ errorState: CashAppPayState) {
        if machine.state.isTerminal { send(.reset) }
        send(.failedBeforeRequest(errorState))
    }

    /// Abandons the current flow and goes back to `notStarted`.
    public func reset() {
        flow += 1
        send(.reset)
    }

    /// Fetches a request by id without touching the state.
    public func retrieveCustomerRequest(id: String) async throws(CustomerRequestFailure) -> CustomerRequest {
        try await client.retrieve(id: id, retryPolicy: nil)
    }

    private func send(_ event: CashAppPayMachine.Event) {
        for effect in machine.handle(event) { perform(effect) }
    }

    /// Feeds a result back unless its flow was abandoned meanwhile.
    private func deliver(_ event: CashAppPayMachine.Event, flow resultFlow: Int) {
        guard resultFlow == flow else { return }
        send(event)
    }

    private func perform(_ effect: CashAppPayMachine.Effect) {
        let currentFlow = flow
        switch effect {
        case .notify(let state):
            for observer in observers.live() { observer.stateDidChange(to: state) }
        case .requestChanged(let request):
            for observer in observers.live() { observer.requestDidChange(request) }
        case .presentAuthorization(let url):
            authorizationURL = url
        case .createRequest(let params):
            spawn(flow: currentFlow, success: { .created($0) }) { client throws(CustomerRequestFailure) in
                try await client.create(params)
            }
        case .updateRequest(let id, let params):
            spawn(flow: currentFlow, success: { .updated($0) }) { client throws(CustomerRequestFailure) in
                try await client.update(id: id, with: params)
            }
        case .refreshRequest(let id):
            let policy = timing.refreshRetry
            spawn(flow: currentFlow, success: { .refreshed($0) }) { client throws(CustomerRequestFailure) in
                try await client.retrieve(id: id, retryPolicy: policy)
            }
        case .startPolling(let id):
            pollTask?.cancel()
            pollTask = makePollTask(id: id, flow: currentFlow)
        case .stopPolling:
            pollTask?.cancel()
            pollTask = nil
        }
    }

    /// Retrieves at once, then every interval (measured from the start of each retrieval).
    private func makePollTask(id: String, flow pollFlow: Int) -> Task<Void, Never> {
        let client = client
        let interval = timing.pollInterval
        let sleep = sleep
        return Task {
            let clock = ContinuousClock()
            while !Task.isCancelled {
                let started = clock.now
                let event = await Self.event(success: { .retrieved($0) }) { () throws(CustomerRequestFailure) in
                    try await client.retrieve(id: id, retryPolicy: nil)
                }
                guard !Task.isCancelled else { return }
                self.deliver(event, flow: pollFlow)
                guard !Task.isCancelled else { return }
                let remaining = interval - (clock.now - started)
                if remaining > .zero { try? await sleep(remaining) }
            }
        }
    }

    /// Calls the API in a task and feeds the outcome back as an event.
    private func spawn(
        flow callFlow: Int,
        success: @escaping @Sendable (CustomerRequest) -> CashAppPayMachine.Event,
        _ call: @escaping @Sendable (any CustomerRequestAPI) async throws(CustomerRequestFailure) -> CustomerRequest
    ) {
        let client = client
        Task {
            let event = await Self.event(success: success) { () throws(CustomerRequestFailure) in try await call(client) }
            self.deliver(event, flow: callFlow)
        }
    }

    private static func event(
        success: (CustomerRequest) -> CashAppPayMachine.Event,
        _ operation: () async throws(CustomerRequestFailure) -> CustomerRequest
    ) async -> CashAppPayMachine.Event {
        do { return success(try await operation()) } catch { return .failed(error) }
    }
}
