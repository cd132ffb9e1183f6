/// Afterpay's sandbox magic values, documented in the README and `checkout providers`.
public enum AfterpayMagic {
    /// Afterpay checkouts of this many cents fail validation (status INVALID).
    public static let invalidValidationCents = 5550
    /// Afterpay checkouts of this many cents have their capture declined.
    public static let declinedCaptureCents = 4440
    /// Afterpay checkouts of this many cents fail sign-payment once per merchant reference: the
    /// client's retry with a new checkout token signs.
    public static let signFailsOnceCents = 3330
    /// Afterpay checkouts of this many cents always fail sign-payment.
    public static let signFailsAlwaysCents = 3331
}
