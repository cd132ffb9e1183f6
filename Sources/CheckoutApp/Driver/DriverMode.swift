/// Where the screen and `checkout run` differ: only where a person is at the keyboard. Every
/// such difference is a field here, and nowhere else.
public struct DriverMode: Hashable, Sendable {
    /// When the authorization timeout's clock runs.
    public enum TimeoutClock: Hashable, Sendable {
        /// From paying: nobody will ever act, so the whole run has a deadline (then it ends).
        case wholeRun
        /// While polling: a person may take their time before paying, not the customer after.
        case whilePolling
    }

    /// Authorizes a ready request itself (headless); on the screen the person presses p.
    public var authorizesReadyRequest: Bool
    /// How long a scripted answer waits when the behaviour sets no delay. The driver's default
    /// is none; a person watching the screen gets a second to see the prompt before it goes.
    public var promptAnswerPause: Double
    public var timeoutClock: TimeoutClock

    /// `checkout run`: nobody at the keyboard.
    public static let headless = DriverMode(authorizesReadyRequest: true, promptAnswerPause: 0, timeoutClock: .wholeRun)
    /// The full-screen checkout: a person at the keyboard, watching.
    public static let screen = DriverMode(authorizesReadyRequest: false, promptAnswerPause: 1, timeoutClock: .whilePolling)
}
