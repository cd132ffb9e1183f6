/// Afterpay's sandbox magic values, documented in the README and `checkout providers`.
public enum AfterpayMagic {
    /// Afterpay checkouts of this many cents fail validation (status INVALID).
    public static let invalidValidationCents = 5550
    /// Afterpay checkouts of this many cents have their capture declined.
    public static let declinedCaptureCents = 4440
}
