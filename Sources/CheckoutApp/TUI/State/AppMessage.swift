import Foundation
import PaymentFlow
import ProviderClients
import TerminalUI

/// Everything that can happen to the app, from any source, as one message stream.
public enum AppMessage: Hashable, Sendable {
    case key(Key)
    case resized(width: Int, height: Int)
    case tick(Date)
    case stateChanged(CheckoutState)
    case attemptChanged(PaymentAttempt)
    case phaseChanged(CheckoutPhase)
    case exchange(HTTPExchange)
    /// A provider's notice (an Adyen webhook), received at that time.
    case notice(ProviderNotice, at: Date)
    case customerActionFailed(String)
}

/// Side effects `update` asks for; the runner performs them in order, off the UI loop.
public enum AppCommand: Hashable, Sendable {
    /// Pay for the order with this provider (fixed for the attempt).
    case pay(PaymentOrder, provider: ProviderPlan)
    /// The cart changed before authorizing: the attempt follows it.
    case changeOrder(PaymentOrder)
    case authorize
    case actAsCustomer(SandboxControlClient.CustomerDecision, attemptID: String, afterSeconds: Double = 0)
    case giveUp(afterSeconds: Int)
    case reset
}
