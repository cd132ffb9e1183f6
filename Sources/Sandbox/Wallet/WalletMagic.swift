/// The wallet sandbox's documented token values, for docs and `checkout providers`.
public enum WalletMagic {
    /// A token for a card ending 0002 is declined by the processor: Adyen answers resultCode
    /// Refused (refusalReason "Refused"), Square CARD_DECLINED / GENERIC_DECLINE.
    public static let declinedLast4 = "0002"
    /// A token for a card ending 5556 (Visa debit, as Stripe's test card 4000056655665556) is a
    /// debit card (paymentMethod.type "debit"); every other card is credit.
    public static let debitLast4 = "5556"
    /// A token pays within five minutes of issue (by the sandbox's clock), as Apple Pay's
    /// cryptograms are short-lived.
    public static let tokenLifetimeSeconds = 300.0

    public static let descriptions = [
        "POST /wallet/tokens: last4 \"0002\" → the processor declines (Adyen Refused; Square CARD_DECLINED / GENERIC_DECLINE)",
        "a wallet token expires 300 s after issue (Adyen 422 5_002; Square 400 CARD_TOKEN_EXPIRED)",
        "a wallet token pays its own amount and currency only (Adyen 422 5_001; Square 400 INVALID_VALUE on amount_money)",
        "POST /wallet/tokens: last4 \"5556\" is a debit card; others are credit",
        "a token whose merchantCapabilities lack supports3DS (an EMV token), or a credit (debit) card when they name supportsDebit (supportsCredit) only, is refused: Adyen Refused \"Not supported\" (refusalReasonCode 10); Square CARD_NOT_SUPPORTED",
    ]
}
