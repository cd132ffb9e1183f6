/// Adyen's sandbox magic amounts (`amount.value` in minor units), documented in the README and
/// `checkout providers`. Any other amount paid with a valid grant is Authorised.
public enum AdyenMagic {
    /// resultCode Refused, refusalReason "Refused".
    public static let refusedValue = 7001
    /// resultCode Error.
    public static let errorValue = 7002
    /// resultCode Cancelled.
    public static let cancelledValue = 7003
    /// resultCode Received, then an AUTHORISATION webhook with success "true".
    public static let receivedThenAuthorisedValue = 7004
    /// resultCode Received, then an AUTHORISATION webhook with success "false" (reason Refused).
    public static let receivedThenRefusedValue = 7005
    /// resultCode RedirectShopper with a `redirect` action (on `/payments` and a session's
    /// payments); the action's page hands back the `redirectResult` that `/payments/details`
    /// (or the session's paymentDetails) completes it with: Authorised.
    public static let redirectValue = 7006
    /// The merchant account answered 403 `901` Invalid Merchant Account.
    public static let unknownMerchantAccount = "UnknownMerchant"
    /// API keys the sandbox accepts start with this, as Adyen's do.
    public static let apiKeyPrefix = "AQE"

    /// One line per magic value, for docs and `checkout providers`.
    public static let descriptions = [
        "amount.value 7001 → resultCode Refused (refusalReason \"Refused\")",
        "amount.value 7002 → resultCode Error",
        "amount.value 7003 → resultCode Cancelled",
        "amount.value 7004 → resultCode Received, then an AUTHORISATION webhook success \"true\" (2 s later: SandboxSettings.adyen.asyncResultDelay)",
        "amount.value 7005 → resultCode Received, then an AUTHORISATION webhook success \"false\" (reason \"Refused\")",
        "amount.value 7006 → resultCode RedirectShopper + action {type \"redirect\"}: GET action.url (302 to returnUrl?redirectResult=…), then /payments/details (or the session's paymentDetails) with details.redirectResult → Authorised",
        "merchantAccount \"UnknownMerchant\" → 403 errorCode 901 \"Invalid Merchant Account\"",
        "X-API-Key not starting with \"AQE\" → 401 errorCode 000",
    ]
}
