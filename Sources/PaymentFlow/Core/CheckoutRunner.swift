import Foundation
import ProviderClients

/// Runs the checkout: feeds events to `CheckoutMachine`, performs the effects it returns
/// through the paying provider's adapter in tasks, and notifies observers of every
/// transition in order. The screen and `checkout run` both drive one of these.
public actor CheckoutRunner {
    public struct Timing: Sendable {
        public var pollInterval: Duration

        public init(pollInterval: Duration = .seconds(1)) {
            self.pollInterval = pollInterval
        }
    }

    private var machine = CheckoutMachine()
    private var observers = ObserverList()
    private var pollTask: Task<Void, Never>?
    /// The polling attempt, so `customerActed()` can poll it again at once.
    private var polled: (adapter: any PaymentProviderAdapter, attempt: PaymentAttempt, number: Int)?
    /// The poll task is between retrievals (a nudge restarts it) rather than in one (a nudge
    /// makes it skip its next wait).
    private var pollWaiting = false
    private var pollDueNow = false
    /// The scripted customer acts on each new attempt at once (`retrieveAfterCustomerActs`).
    private var customerActsFirst = false
    /// The attempt the customer last acted on: polling it again retrieves at once.
    private var customerActedOn: String?
    private var attemptsMade = 0
    private let adapters: @Sendable (String) -> (any PaymentProviderAdapter)?
    private let timing: Timing
    private let now: @Sendable () -> Date
    private let sleep: Sleeper
    private let makeIdentifiers: @Sendable (Int) -> AttemptIdentifiers
    /// Where adapters ask the person at the terminal; withdrawn when the attempt is abandoned.
    private let desk: CustomerDesk?

    /// The last authorization link handed out, for the banner and QR code.
    public private(set) var authorizationURL: String?

    /// `adapters` gives the adapter for a provider id (the registry's).
    public init(
        adapters: @escaping @Sendable (String) -> (any PaymentProviderAdapter)?,
        timing: Timing = Timing(),
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping Sleeper = realSleeper,
        makeIdentifiers: @escaping @Sendable (Int) -> AttemptIdentifiers = { AttemptIdentifiers.make(number: $0) },
        desk: CustomerDesk? = nil
    ) {
        self.desk = desk
        self.adapters = adapters
        self.timing = timing
        self.now = now
        self.sleep = sleep
        self.makeIdentifiers = makeIdentifiers
    }

    public var state: CheckoutState { machine.state }
    public var ended: Bool { machine.ended }

    public func addObserver(_ observer: any CheckoutObserver) { observers.add(observer) }
    public func removeObserver(_ observer: any CheckoutObserver) { observers.remove(observer) }

    /// Pays for `order` with `provider`; new identifiers for the attempt. While an attempt is
    /// in progress nothing starts: the answer is `paymentAlreadyInProgress` and the first goes on.
    @discardableResult
    public func pay(_ order: PaymentOrder, with provider: ProviderPlan) -> ProviderFailure? {
        guard machine.state == .notStarted && !machine.busyPreparing || machine.ended else { return .paymentAlreadyInProgress }
        attemptsMade += 1
        send(.pay(order, provider: provider, ids: makeIdentifiers(attemptsMade)))
        return nil
    }

    public func changeOrder(_ order: PaymentOrder) { send(.changeOrder(order)) }
    public func authorize() { send(.authorize(now: now())) }
    public func customerReturned() { send(.customerReturned) }
    public func authorizationTimedOut(seconds: Int) { send(.authorizationTimedOut(seconds: seconds)) }

    /// The sandbox's simulated customer has just approved or declined: retrieve now rather than
    /// at the next tick, so a run takes as long as the flow, not up to a poll interval more.
    /// Only the embedded or shared sandbox calls this; real providers keep PayKit's cadence.
    public func customerActed() {
        guard let polled, pollTask != nil else { return }
        customerActedOn = polled.attempt.id
        guard pollWaiting else {
            pollDueNow = true
            return
        }
        pollTask?.cancel()
        pollTask = makePollTask(polled.adapter, attempt: polled.attempt, number: polled.number)
    }

    /// The sandbox's simulated customer acts on each new attempt as soon as it polls: its first
    /// retrieval waits for `customerActed()` (one poll interval at most) rather than asking the
    /// provider before anyone could have answered, which only raced the customer's own call
    /// for the same two cores (an Antom inquiry is two RSA signatures) and told nothing.
    public func retrieveAfterCustomerActs() { customerActsFirst = true }

    /// Abandons the current attempt and goes back to `notStarted`; a prompt it asked is taken away.
    public func reset() {
        send(.reset)
        let desk = desk
        Task { await desk?.withdraw() }
    }

    private func send(_ event: CheckoutMachine.Event) {
        for effect in machine.handle(event) { perform(effect) }
    }

    private func perform(_ effect: CheckoutMachine.Effect) {
        switch effect {
        case .notify(let state):
            for observer in observers.live() { observer.stateDidChange(to: state) }
        case .phaseChanged(let phase):
            for observer in observers.live() { observer.phaseDidChange(to: phase) }
        case .attemptChanged(let attempt):
            for observer in observers.live() { observer.attemptDidChange(attempt) }
        case .presentAuthorization(let url):
            authorizationURL = url
        case .stopPolling:
            pollTask?.cancel()
            pollTask = nil
            polled = nil
        case .startPolling(let attempt):
            pollTask?.cancel()
            let waitsForCustomer = customerActsFirst && attempt.id != nil && attempt.id != customerActedOn
            pollTask = withAdapter { adapter, ids in
                polled = (adapter, attempt, ids.number)
                // Waiting as between retrievals: the customer's nudge starts the first at once.
                pollWaiting = waitsForCustomer
                return makePollTask(adapter, attempt: attempt, number: ids.number, waitingFirst: waitsForCustomer)
            }
        case .prepare(let order):
            call { adapter, ids, step throws(ProviderFailure) in
                var draft = try await adapter.prepare(order, ids: ids.attempt, step: step)
                draft.provider = ids.provider
                return .prepared(draft)
            }
        case .create(let draft, let order):
            call { adapter, ids, _ throws(ProviderFailure) in .created(try await adapter.create(draft, order: order, ids: ids.attempt)) }
        case .update(let attempt, let draft, let order):
            call { adapter, ids, _ throws(ProviderFailure) in .updated(try await adapter.update(attempt, to: draft, order: order, ids: ids.attempt)) }
        case .refresh(let attempt):
            call { adapter, _, _ throws(ProviderFailure) in .refreshed(try await adapter.retrieve(attempt, refreshing: true)) }
        case .settle(let attempt):
            call { adapter, ids, step in .settled(await adapter.settle(attempt, ids: ids.attempt, step: step)) }
        case .authorizeAtTerminal(let attempt, let order):
            call { adapter, ids, step throws(ProviderFailure) in
                .authorizedAtTerminal(try await adapter.authorizeAtTerminal(attempt, order: order, ids: ids.attempt, step: step))
            }
        }
    }

    /// The attempt's identifiers with its provider id, for adapters.
    private struct CallIdentifiers: Sendable {
        let attempt: AttemptIdentifiers
        let provider: String
        var number: Int { attempt.number }
    }

    private func withAdapter<T>(_ body: (any PaymentProviderAdapter, CallIdentifiers) -> T?) -> T? {
        guard let plan = machine.provider, let ids = machine.ids else { return nil }
        guard let adapter = adapters(plan.id) else {
            let number = ids.number
            Task { self.deliver(.failed(.unknownProvider(plan.id)), attempt: number) }
            return nil
        }
        return body(adapter, CallIdentifiers(attempt: ids, provider: plan.id))
    }

    /// Runs a provider call in a task and feeds its outcome (or failure) back, tagged with the
    /// attempt. Steps it reports are applied before it returns (the adapter awaits them).
    private func call(
        _ operation: @escaping @Sendable (any PaymentProviderAdapter, CallIdentifiers, @escaping StepReporter)
            async throws(ProviderFailure) -> CheckoutMachine.Outcome
    ) {
        _ = withAdapter { adapter, ids -> Void in
            let number = ids.number
            Task {
                let outcome: CheckoutMachine.Outcome
                do throws(ProviderFailure) { outcome = try await operation(adapter, ids, { name in await self.deliver(.step(name), attempt: number) }) } catch {
                    outcome = .failed(error)
                }
                self.deliver(outcome, attempt: number)
            }
        }
    }

    private func deliver(_ outcome: CheckoutMachine.Outcome, attempt number: Int) {
        send(.result(attempt: number, outcome))
    }

    /// Retrieves at once (or after one interval, `waitingFirst`), then every interval (measured
    /// from the start of each retrieval).
    private func makePollTask(_ adapter: any PaymentProviderAdapter, attempt: PaymentAttempt, number: Int, waitingFirst: Bool = false) -> Task<Void, Never> {
        let interval = timing.pollInterval
        let sleep = sleep
        return Task {
            if waitingFirst { try? await sleep(interval) }
            let clock = ContinuousClock()
            while !Task.isCancelled {
                let started = clock.now
                self.pollWaiting = false
                self.pollDueNow = false
                let outcome: CheckoutMachine.Outcome
                do throws(ProviderFailure) { outcome = .retrieved(try await adapter.retrieve(attempt, refreshing: false)) } catch { outcome = .failed(error) }
                guard !Task.isCancelled else { return }
                self.deliver(outcome, attempt: number)
                guard !Task.isCancelled else { return }
                let remaining = interval - (clock.now - started)
                guard remaining > .zero, !self.pollDueNow else { continue }
                self.pollWaiting = true
                try? await sleep(remaining)
            }
        }
    }
}
