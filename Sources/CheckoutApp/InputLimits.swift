/// The ranges numbers from outside (flags, scenario files, transcripts) must fall in, checked
/// where they enter so no arithmetic on them can overflow or trap.
public enum InputLimits {
    /// Items of one line in a cart.
    public static let quantity = 1...9_999
    /// A price or charged amount, in minor units: up to 999,999,999.99 (times the largest
    /// quantity still far from overflowing).
    public static let minorUnits = 1...99_999_999_999
    /// The sandbox's auth-flow trigger rotation, in seconds.
    public static let triggerRotationSeconds = 1.0...3_600
    /// The sandbox's pending-request lifetime, in seconds (a week).
    public static let requestLifetimeSeconds = 1.0...604_800
    /// How long a simulated customer may wait before approving.
    public static let customerDelaySeconds = 0.0...3_600
    /// How long a checkout may wait for a decision (a day).
    public static let timeoutSeconds = 1...86_400
    /// A scenario's reference id, in characters, for providers that set no limit of their own.
    public static let referenceCharacters = 1024
    /// The retry back-off base, in milliseconds (a minute: the fourth retry then waits 15 min).
    public static let retryBaseMilliseconds = 0...60_000

    /// "1 to 9999", "0 to 3600": a range as messages write it.
    public static func describe<T: Comparable>(_ range: ClosedRange<T>, _ text: (T) -> String) -> String {
        "\(text(range.lowerBound)) to \(text(range.upperBound))"
    }
}
