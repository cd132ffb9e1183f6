import Foundation
import PaymentFlow

/// What automates a checkout around the runner, once for the screen and `checkout run`: the
/// scenario's customer (acting on the link, answering prompts), authorizing where nobody is
/// at the keyboard, clearing finished provider steps, and the authorization timeout. A pure
/// value, events in and commands out; a delay is a `.wait` whose end comes back as an event,
/// so nothing here sleeps. `mode` holds where the front ends differ.
public struct CheckoutDriver: Hashable, Sendable {
    public let mode: DriverMode
    /// The scenario's customer; nil when nobody is scripted (the screen without a scenario).
    public var customer: CustomerBehaviour?
    /// The embedded or a shared sandbox, where the simulated customer can act.
    public var customerSimulated: Bool
    /// Waiting longer than this for the customer gives up.
    public var authorizationTimeoutSeconds: Int

    /// The checkout as the driver follows it.
    public private(set) var state: CheckoutState = .notStarted
    public private(set) var phase: CheckoutPhase?
    /// The method paid with: whether it settles, and its prompt policy.
    private var method: PaymentMethod?
    private var prompt: CustomerPrompt?
    /// The attempt the scenario's customer acted on (it acts once per attempt).
    private var actedOn: String?
    /// Since when the customer is being waited for, until the timeout is given up on.
    private var pollingSince: Date?

    public init(mode: DriverMode, customer: CustomerBehaviour? = nil, customerSimulated: Bool, authorizationTimeoutSeconds: Int) {
        self.mode = mode
        self.customer = customer
        self.customerSimulated = customerSimulated
        self.authorizationTimeoutSeconds = authorizationTimeoutSeconds
    }

    /// Nothing more will happen without a new checkout.
    public var ended: Bool { state.ends(with: phase, settles: method?.settles == true) }

    public mutating func handle(_ event: DriverEvent) -> [DriverCommand] {
        switch event {
        case .paying(let method):
            self.method = method
            // The simulated customer acts as soon as an attempt polls: asking the provider first would tell nothing.
            let first: [DriverCommand] = customerSimulated && customer?.action?.afterSeconds == 0 ? [.retrieveAfterCustomerActs] : []
            guard mode.timeoutClock == .wholeRun else { return first }
            return first + [.wait(.runDeadline, seconds: Double(authorizationTimeoutSeconds))]
        case .stateChanged(let next, let now):
            return enter(next, at: now)
        case .phaseChanged(let next):
            phase = next
            return []
        case .promptChanged(let next):
            return promptChanged(to: next)
        case .timePassed(let now):
            // Give up once, on the first moment past the authorization timeout.
            guard mode.timeoutClock == .whilePolling, let since = pollingSince,
                now >= since.addingTimeInterval(TimeInterval(authorizationTimeoutSeconds))
            else { return [] }
            pollingSince = nil
            return [.giveUp(afterSeconds: authorizationTimeoutSeconds)]
        case .timerFired(let timer):
            return fired(timer)
        }
    }

    private mutating func enter(_ next: CheckoutState, at now: Date) -> [DriverCommand] {
        state = next
        phase = CheckoutPhase.remaining(phase, entering: next)
        pollingSince = nil
        switch next {
        case .readyToAuthorize where mode.authorizesReadyRequest:
            return [.authorize]
        case .polling(let attempt):
            pollingSince = now
            return customerActs(on: attempt)
        default:
            return []
        }
    }

    /// The scenario's customer acts on a new attempt's link, once, after its behaviour's delay.
    private mutating func customerActs(on attempt: PaymentAttempt) -> [DriverCommand] {
        guard let customer else { return [] }
        let link = attempt.authorizationURL ?? "(no link)"
        guard customerSimulated else { return [.note(.customerActsOnTheirDevice(link: link))] }
        guard let (decision, delay) = customer.action else { return [.note(.waitingForCustomer(link: link))] }
        guard let id = attempt.id, actedOn != id else { return [] }
        actedOn = id
        return [.note(.customerWillAct(decision, afterSeconds: delay))] + after(delay, .customerActs(decision, attemptID: id))
    }

    /// The scenario's customer answers a prompt once it no longer waits on the provider: a
    /// version replaced in place (rates came in) only if the one before was still loading.
    private mutating func promptChanged(to next: CustomerPrompt?) -> [DriverCommand] {
        let before = prompt
        prompt = next
        guard let next, let customer, !next.awaitsProvider else { return [] }
        if before?.id == next.id, before?.awaitsProvider != true { return [] }
        guard let answer = next.scripted[customer.keyword] else {
            return [.note(.customerDoesNotAnswer(promptID: next.id, title: next.title, behaviour: customer.spelling))]
        }
        // The behaviour's delay is for what decides the payment, not what the provider answers at once (a tip).
        let delay = if case .approveAfter(let seconds) = customer, method?.promptsAnsweredAtOnce.contains(next.id) != true {
            seconds
        } else {
            mode.promptAnswerPause
        }
        return [.note(.customerAnswers(promptID: next.id, answer))] + after(delay, .customerAnswers(answer, promptID: next.id))
    }

    /// What `timer` stands for, at once when there is no delay, else once it fires.
    private mutating func after(_ seconds: Double, _ timer: DriverTimer) -> [DriverCommand] {
        seconds > 0 ? [.wait(timer, seconds: seconds)] : fired(timer)
    }

    private mutating func fired(_ timer: DriverTimer) -> [DriverCommand] {
        switch timer {
        case .customerActs(let decision, let id): [.actAsCustomer(decision, attemptID: id)]
        case .customerAnswers(let answer, let id): [.answerPrompt(answer, promptID: id)]
        case .runDeadline: [.giveUp(afterSeconds: authorizationTimeoutSeconds), .wait(.afterGivingUp, seconds: 1)]
        case .afterGivingUp: [.endRun]
        }
    }
}

extension CustomerPrompt {
    /// Still loading (a spinner) or only showing progress: nothing to answer yet.
    var awaitsProvider: Bool { actions.isEmpty || choices.contains { $0.mark == .busy } }
}
