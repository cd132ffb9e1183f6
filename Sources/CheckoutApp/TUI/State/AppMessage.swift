import Foundation
import PaymentFlow
import ProviderClients
import TerminalUI

/// Everything that can happen to the app, from any source, as one message stream.
public enum AppMessage: Hashable, Sendable {
    case key(Key)
    /// A click or the wheel on the screen.
    case mouse(MouseEvent)
    case resized(width: Int, height: Int)
    case tick(Date)
    case stateChanged(CheckoutState)
    case attemptChanged(PaymentAttempt)
    case phaseChanged(CheckoutPhase)
    case exchange(HTTPExchange)
    /// A provider's notice (an Adyen webhook), received at that time.
    case notice(ProviderNotice, at: Date)
    case customerActionFailed(String)
    /// A provider's saved methods, listed anew (after `reason`, e.g. a token webhook).
    case savedMethodsLoaded(provider: String, [SavedPaymentMethod], reason: String?)
    /// Listing or deleting saved methods failed: what to tell the user.
    case savedMethodsFailed(String)
    /// A saved method was deleted at the provider.
    case savedMethodDeleted(SavedPaymentMethod)
    /// A provider asks the person at the terminal (Square's reader), or its prompt went (nil).
    case promptChanged(CustomerPrompt?)
    /// The session behind the first frame is up: requests go to `endpointLabel`.
    case sessionStarted(endpointLabel: String)
    /// The session could not start (the sandbox's port, say): the screen ends, saying why.
    case sessionFailed(String)
    /// The browser was started on `url` (`problem` nil), or why it could not be.
    case linkOpened(url: String, problem: String?)
    /// A delay the driver asked for (`SessionCommand.wait`) is over.
    case driverTimer(DriverTimer)
    /// The provider answered the health check (`SessionCommand.checkHealth`): nil when it has none.
    case healthChecked(provider: String, healthy: Bool?)
}

/// Side effects `update` asks for, by who performs them: each has one interpreter that
/// switches over all of its commands.
public enum AppCommand: Hashable, Sendable {
    /// The session performs it, in order, off the UI loop (`TerminalCheckout`).
    case session(SessionCommand)
    /// The UI loop performs it itself (`ScreenEffects`): it works before the session is up and in a replay.
    case screen(ScreenEffect)
}

/// What the session does for the screen.
public enum SessionCommand: Hashable, Sendable {
    /// Pay for the order with this provider (fixed for the attempt).
    case pay(PaymentOrder, provider: ProviderPlan)
    /// The cart changed before authorizing: the attempt follows it.
    case changeOrder(PaymentOrder)
    case authorize
    /// Each attempt's first retrieval waits for the scenario's simulated customer.
    case retrieveAfterCustomerActs
    case actAsCustomer(SandboxControlClient.CustomerDecision, attemptID: String)
    case giveUp(afterSeconds: Int)
    case reset
    /// List a provider's saved methods (providers without any are skipped).
    case loadSavedMethods(provider: String, reason: String?)
    case deleteSavedMethod(SavedPaymentMethod)
    /// Answer the provider's prompt.
    case answerPrompt(PromptAnswer, promptID: String)
    /// Post `.driverTimer(timer)` after `seconds` (the driver's delays).
    case wait(DriverTimer, seconds: Double)
    /// Ask the provider whether it answers again after an apiError; answers `.healthChecked`.
    case checkHealth(provider: String)
}

/// What the UI loop does itself.
public enum ScreenEffect: Hashable, Sendable {
    /// Open this (checked) link in the user's browser, answering `linkOpened`.
    case openLink(String)
    /// Put this text on the clipboard through the terminal.
    case copyToClipboard(String)
}
