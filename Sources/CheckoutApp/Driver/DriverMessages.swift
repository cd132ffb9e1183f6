import Foundation
import PaymentFlow
import ProviderClients

/// What the driver hears: the checkout moving, prompts coming and going, time passing, and
/// its own delays coming back.
public enum DriverEvent: Hashable, Sendable {
    /// A checkout starts with this provider's method (its settling and prompt policy).
    case paying(PaymentMethod)
    case stateChanged(CheckoutState, at: Date)
    case phaseChanged(CheckoutPhase)
    /// The provider asks the person at the terminal (nil: its prompt went).
    case promptChanged(CustomerPrompt?)
    /// The clock moved on (the screen's tick).
    case timePassed(Date)
    /// A `.wait` the driver asked for is over.
    case timerFired(DriverTimer)
}

/// What the driver asks a front end to do. Each front end's interpreter switches over every
/// case: what one of them does not do (the screen never ends a run) it says so by name.
public enum DriverCommand: Hashable, Sendable {
    /// Authorize the ready request (nobody at the keyboard presses p).
    case authorize
    /// Each attempt's first retrieval waits for the simulated customer, who acts at once.
    case retrieveAfterCustomerActs
    /// The sandbox's simulated customer acts on the attempt.
    case actAsCustomer(SandboxControlClient.CustomerDecision, attemptID: String)
    /// Answer the provider's prompt as the scenario's customer.
    case answerPrompt(PromptAnswer, promptID: String)
    /// Give up waiting for the customer: the attempt is abandoned.
    case giveUp(afterSeconds: Int)
    /// Come back with `.timerFired(timer)` after `seconds`.
    case wait(DriverTimer, seconds: Double)
    /// Something to tell whoever watches, each front end in its words.
    case note(DriverNote)
    /// Stop following the checkout: the run's deadline passed.
    case endRun
}

/// A delay the driver is waiting out.
public enum DriverTimer: Hashable, Sendable {
    /// The scenario's customer acts on this attempt (approve-after's seconds).
    case customerActs(SandboxControlClient.CustomerDecision, attemptID: String)
    /// The scenario's customer answers this prompt.
    case customerAnswers(PromptAnswer, promptID: String)
    /// A run's deadline: give up.
    case runDeadline
    /// A moment after giving up, for the runner's last states to come in: the run ends.
    case afterGivingUp
}

/// What the driver tells whoever watches.
public enum DriverNote: Hashable, Sendable {
    /// The scenario's customer will act on the authorization link after this many seconds.
    case customerWillAct(SandboxControlClient.CustomerDecision, afterSeconds: Double)
    /// The scenario's customer answers the prompt with `answer`.
    case customerAnswers(promptID: String, PromptAnswer)
    /// The scenario's customer has no answer for this prompt: it stays.
    case customerDoesNotAnswer(promptID: String, title: String, behaviour: String)
    /// Not a sandbox: the real customer must act on their own device.
    case customerActsOnTheirDevice(link: String)
    /// The scenario's customer does nothing: someone must act on the link.
    case waitingForCustomer(link: String)
}

extension PromptAnswer {
    /// The answer as words: its action, then its choice ("tap ok").
    var words: String { ([action] + [choice].compactMap { $0 }).joined(separator: " ") }
}
