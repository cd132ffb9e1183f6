import Foundation

/// The one checkout coordinator, as a pure value: it owns the SDK state, the settlement
/// phase, the provider chosen when paying and the attempt's identifiers; it takes events and
/// returns the effects to perform. No I/O, no clock: time and identifiers arrive in events.
/// The screen and `checkout run` both drive it through `CheckoutRunner`.
public struct CheckoutMachine: Sendable, Hashable {
    public enum Event: Sendable, Hashable {
        /// The user pays: the provider is fixed here, for the whole attempt.
        case pay(PaymentOrder, provider: ProviderPlan, ids: AttemptIdentifiers)
        /// The cart changed; before authorizing, the attempt follows it.
        case changeOrder(PaymentOrder)
        case authorize(now: Date)
        /// The customer came back from the authorization link (a redirect/return).
        case customerReturned
        /// No decision arrived in time; the attempt is abandoned.
        case authorizationTimedOut(seconds: Int)
        case reset
        /// What an effect came to, for attempt number `attempt`.
        case result(attempt: Int, Outcome)
    }

    /// Results of effects, fed back by the runner.
    public enum Outcome: Sendable, Hashable {
        /// A provider step began (its name as the descriptor lists it).
        case step(String)
        /// The provider's steps before its request are done: this is what will be created or updated to.
        case prepared(PaymentAttempt)
        case created(PaymentAttempt)
        case updated(PaymentAttempt)
        case retrieved(PaymentAttempt)
        case refreshed(PaymentAttempt)
        /// The terminal sheet closed: approved, declined, or still pending (the customer closed it unpaid).
        case authorizedAtTerminal(PaymentAttempt)
        case failed(ProviderFailure)
        case settled(SettlementOutcome)
    }

    public enum Effect: Sendable, Hashable {
        case notify(CheckoutState)
        case phaseChanged(CheckoutPhase)
        /// The attempt changed without a state change (e.g. its link rotated while polling).
        case attemptChanged(PaymentAttempt)
        /// The provider's steps before its request (e.g. Afterpay's token and signing).
        case prepare(PaymentOrder)
        case create(PaymentAttempt, order: PaymentOrder)
        case update(PaymentAttempt, to: PaymentAttempt, order: PaymentOrder)
        /// Retrieve the attempt again with retries, for a fresh authorization link.
        case refresh(PaymentAttempt)
        /// Retrieve at once, then about every second, until `stopPolling`.
        case startPolling(PaymentAttempt)
        case stopPolling
        /// Give the customer this link (or its QR code).
        case presentAuthorization(url: String)
        /// Validate and capture an approved attempt.
        case settle(PaymentAttempt)
        /// Open the provider's sheet at the terminal for a ready attempt (the wallet).
        case authorizeAtTerminal(PaymentAttempt, order: PaymentOrder)
    }

    public private(set) var state: CheckoutState
    public private(set) var phase: CheckoutPhase?
    /// The provider of the current attempt, fixed when paying.
    public private(set) var provider: ProviderPlan?
    public private(set) var ids: AttemptIdentifiers?
    /// The newest order: what the attempt should be for.
    public private(set) var order: PaymentOrder?
    /// A change arrived while the provider was busy; it goes out when the attempt is ready again.
    private var preparing = false
    /// The provider's sheet is open at the terminal: authorize waits for it, the cart is fixed.
    private var sheetOpen = false

    /// A coordinator at rest, or (for tests and replays) one resumed mid-attempt.
    public init(
        state: CheckoutState = .notStarted, provider: ProviderPlan? = nil, ids: AttemptIdentifiers? = nil, order: PaymentOrder? = nil
    ) {
        self.state = state
        self.provider = provider
        self.ids = ids
        self.order = order
    }

    /// Nothing more happens without a new attempt: a terminal state, and a settled approval
    /// for providers that settle.
    public var ended: Bool { state.ends(with: phase, settles: provider?.settles == true) }

    /// The provider's steps before its request are running (pay waits for them).
    public var busyPreparing: Bool { preparing }

    /// A provider step is running outside the SDK states (the cart and pay wait for it).
    public var busyWithStep: Bool {
        if case .step? = phase { return true }
        return false
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .pay(let order, let plan, let ids):
            guard (state == .notStarted && !preparing) || ended else { return [] }
            var effects = state == .notStarted ? [] : move(to: .notStarted)
            (self.order, provider, self.ids, phase) = (order, plan, ids, nil)
            if plan.prepares {
                preparing = true
                return effects + [.prepare(order)]
            }
            let draft = PaymentAttempt(provider: plan.id, amount: order.amount, reference: order.reference ?? ids.reference)
            effects += move(to: .creatingRequest(draft))
            return effects + [.create(draft, order: order)]
        case .changeOrder(let order):
            guard self.order != nil else { return [] }
            self.order = order
            guard case .readyToAuthorize(let attempt) = state, !preparing, !sheetOpen else { return [] }
            return follow(order, from: attempt)
        case .reset:
            // Abandoned during a provider's step (at Square's reader): say so, so the step's phase clears.
            let wasBusy = preparing || phase != nil
            (provider, ids, order, phase, preparing, sheetOpen) = (nil, nil, nil, nil, false, false)
            return state == .notStarted && !wasBusy ? [] : move(to: .notStarted)
        case .result(let number, let outcome):
            guard number == ids?.number else { return [] }
            return handle(outcome)
        case .authorize, .customerReturned, .authorizationTimedOut:
            return handleCustomerStep(event)
        }
    }

    private mutating func handleCustomerStep(_ event: Event) -> [Effect] {
        switch (state, event) {
        case (.readyToAuthorize(let attempt), .authorize(let now)):
            guard !preparing, !sheetOpen else { return [] }
            switch attempt.status {
            case .declined: return move(to: .integrationError(.terminalState))
            case .approved: return redirect(attempt, presenting: false)
            case .pending, .processing:
                if attempt.linkExpired(now: now) { return move(to: .refreshing(attempt)) + [.refresh(attempt)] }
                return redirect(attempt, presenting: true)
            }
        case (.readyToAuthorize(let attempt), .customerReturned), (.redirecting(let attempt), .customerReturned):
            return move(to: .polling(attempt)) + [.startPolling(attempt)]
        case (.notStarted, .authorizationTimedOut(let seconds)) where preparing:
            // A provider step waited on the customer (Square's reader) too long.
            preparing = false
            phase = nil
            return move(to: .unexpectedError(.authorizationTimeout(seconds: seconds)))
        case (.readyToAuthorize, .authorizationTimedOut(let seconds)), (.redirecting, .authorizationTimedOut(let seconds)),
            (.polling, .authorizationTimedOut(let seconds)), (.refreshing, .authorizationTimedOut(let seconds)):
            (preparing, sheetOpen) = (false, false)
            return move(to: .unexpectedError(.authorizationTimeout(seconds: seconds)))
        default:
            return []
        }
    }

    private mutating func handle(_ outcome: Outcome) -> [Effect] {
        switch (state, outcome) {
        case (.notStarted, .step(let name)), (.readyToAuthorize, .step(let name)), (.approved, .step(let name)):
            phase = .step(name)
            return [.phaseChanged(.step(name))]

        case (.notStarted, .prepared(let draft)) where preparing:
            guard let order else { return [] }
            preparing = false
            phase = nil
            // Approved already (a stored method): no customer step, straight to settlement.
            if draft.status == .approved, !draft.grants.isEmpty {
                return move(to: .approved(draft)) + (provider?.settles == true ? [.settle(draft)] : [])
            }
            // Ended before anything was sent (a payment cancelled before the card was read): declined, nothing to create.
            if draft.status == .declined { return move(to: .declined(draft)) }
            return move(to: .creatingRequest(draft)) + [.create(draft, order: order)]
        case (.readyToAuthorize(let attempt), .prepared(let draft)) where preparing:
            preparing = false
            phase = nil
            return update(attempt, to: draft)

        // A provider whose create decides at once (a card payment): approved or declined now.
        case (.creatingRequest, .created(let attempt)) where attempt.status == .approved && !attempt.grants.isEmpty:
            return move(to: .approved(attempt)) + (provider?.settles == true ? [.settle(attempt)] : [])
        case (.creatingRequest, .created(let attempt)) where attempt.status == .declined:
            return move(to: .declined(attempt))

        // The provider's own sheet opens at the terminal: ready to authorize, and the sheet decides.
        case (.creatingRequest, .created(let attempt)) where provider?.authorizesAtTerminal == true && attempt.status == .pending:
            guard let order else { return [] }
            sheetOpen = true
            return move(to: .readyToAuthorize(attempt)) + [.authorizeAtTerminal(attempt, order: order)]
        case (.readyToAuthorize, .authorizedAtTerminal(let attempt)) where sheetOpen:
            sheetOpen = false
            phase = nil
            switch attempt.status {
            case .approved, .declined:
                return decided(attempt)
            case .pending, .processing:
                // Closed unpaid: the attempt is abandoned, as Esc at a prompt abandons it.
                (provider, ids, self.order) = (nil, nil, nil)
                return move(to: .notStarted)
            }

        case (.creatingRequest, .created(let attempt)), (.updatingRequest, .updated(let attempt)):
            var effects = move(to: .readyToAuthorize(attempt))
            // The cart changed while the provider was busy: send the newest amount.
            if let order, attempt.amount != order.amount, attempt.status == .pending || attempt.status == .processing {
                effects += follow(order, from: attempt)
            }
            return effects

        case (.refreshing, .refreshed(let attempt)):
            return redirect(attempt, presenting: attempt.status != .approved)

        case (.polling(let previous), .retrieved(let attempt)):
            switch attempt.status {
            case .approved, .declined:
                return decided(attempt)
            case .pending, .processing:
                // The provider's session ends before the customer acted (Antom): a new one, as for an expiring link.
                if attempt.needsRenewal { return move(to: .refreshing(attempt)) + [.refresh(attempt)] }
                guard attempt != previous else { return [] }
                state = .polling(attempt)
                return [.attemptChanged(attempt)]
            }

        case (.notStarted, .failed(let failure)) where preparing, (.readyToAuthorize, .failed(let failure)) where preparing || sheetOpen,
            (.creatingRequest, .failed(let failure)), (.updatingRequest, .failed(let failure)),
            (.polling, .failed(let failure)), (.refreshing, .failed(let failure)):
            (preparing, sheetOpen) = (false, false)
            phase = nil
            return move(to: .failed(failure))

        case (.approved, .settled(let settlement)):
            phase = settlement.phase
            return [.phaseChanged(settlement.phase)]

        default:
            // Not meaningful now (e.g. a late poll result after a decision): ignore.
            return []
        }
    }

    /// An attempt the provider decided: approved (then settled, for providers that settle) when
    /// it carries what settles it, else declined.
    private mutating func decided(_ attempt: PaymentAttempt) -> [Effect] {
        guard attempt.status == .approved, !attempt.grants.isEmpty else { return move(to: .declined(attempt)) }
        return move(to: .approved(attempt)) + (provider?.settles == true ? [.settle(attempt)] : [])
    }

    /// Brings a ready attempt to `order`: the provider's steps first when it has them.
    private mutating func follow(_ order: PaymentOrder, from attempt: PaymentAttempt) -> [Effect] {
        switch attempt.status {
        case .approved, .declined: return move(to: .integrationError(.terminalState))
        case .pending, .processing: break
        }
        if provider?.prepares == true {
            preparing = true
            return [.prepare(order)]
        }
        var draft = attempt
        draft.amount = order.amount
        return update(attempt, to: draft)
    }

    private mutating func update(_ attempt: PaymentAttempt, to draft: PaymentAttempt) -> [Effect] {
        guard let order else { return [] }
        return move(to: .updatingRequest(attempt, to: draft)) + [.update(attempt, to: draft, order: order)]
    }

    /// Hands out the link (unless the attempt is already approved) and, since a terminal has
    /// no app switch to return from, starts polling at once.
    private mutating func redirect(_ attempt: PaymentAttempt, presenting: Bool) -> [Effect] {
        var effects = move(to: .redirecting(attempt))
        if presenting {
            guard let url = attempt.authorizationURL else {
                return effects + move(to: .unexpectedError(.noRedirectURL(attemptID: attempt.id ?? "?")))
            }
            effects.append(.presentAuthorization(url: url))
        }
        return effects + move(to: .polling(attempt)) + [.startPolling(attempt)]
    }

    /// Changes state and says so; leaving `polling` stops the poll timer.
    private mutating func move(to next: CheckoutState) -> [Effect] {
        let wasPolling = if case .polling = state { true } else { false }
        state = next
        let stillPolling = if case .polling = next { true } else { false }
        return (wasPolling && !stillPolling ? [.stopPolling] : []) + [.notify(next)]
    }
}
