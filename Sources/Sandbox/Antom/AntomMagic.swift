/// The Antom sandbox's magic amounts: `paymentAmount.value` in minor units, in any currency
/// (8001 is 80.01 USD, ฿80.01 or Rp 80,01). Any other amount pays normally when the customer
/// pays. Listed by `checkout providers` through `descriptions`.
public enum AntomMagic {
    /// The bank pays, but Antom first says PAYMENT_PENDING: inquiry answers PENDING and a
    /// PAYMENT_PENDING notification is sent; SUCCESS (and its PAYMENT_RESULT notification) follows
    /// `pendingSeconds` later (÷ `SandboxSettings.timeScale`). The bank said paid, the order is still pending.
    public static let pendingThenPaid = 8001
    /// The payment's notifications are signed with a key that is not the sandbox's: a client must
    /// reject them. Inquiry answers correctly.
    public static let notificationWrongKey = 8002
    /// The PAYMENT_RESULT notification says FAIL (PROCESS_FAIL) while inquiry says SUCCESS: a
    /// disagreement the client must catch (inquiry is the truth).
    public static let notificationDisagrees = 8003
    /// Paying is refused by risk control: FAIL with paymentResultCode RISK_REJECT.
    public static let riskReject = 8004
    /// paymentSessionData is not readable: the component reports SDK_CREATEPAYMENT_PARAMETER_ERROR.
    public static let unreadableSessionData = 8101
    /// The cashier URL in the session data answers HTTP 503: the component reports SDK_CALL_URL_ERROR.
    public static let cashierUnavailable = 8102
    /// The cashier URL answers 200 with a body that is not a cashier: SDK_INTERNAL_ERROR.
    public static let cashierMalformed = 8103
    /// The session data says environment "prod": a component configured for the sandbox reports
    /// SDK_INTEGRATION_ERROR.
    public static let productionSessionData = 8104
    /// createPaymentSession answers UNKNOWN_EXCEPTION (U) every time; nothing is created.
    public static let createUnknown = 8201
    /// inquiryPayment answers REQUEST_TRAFFIC_EXCEED_LIMIT (U) the first time it is asked about the
    /// payment, then normally.
    public static let inquiryTrafficLimited = 8202

    /// Sandbox seconds between the bank paying and SUCCESS for `pendingThenPaid`.
    public static let pendingSeconds = 3.0

    /// What `paymentSessionData` is for `unreadableSessionData`: neither base64 nor JSON.
    static let unreadableSessionDataText = "sandbox:this-is-not-session-data!"

    /// One line per magic value, for docs and `checkout providers`.
    public static let descriptions = [
        "paymentAmount.value 8001 → the bank pays but Antom says PENDING (PAYMENT_PENDING notification); SUCCESS and its PAYMENT_RESULT follow 3 s later",
        "paymentAmount.value 8002 → notifications signed with a wrong key (a client must reject them); inquiry is correct",
        "paymentAmount.value 8003 → the PAYMENT_RESULT notification says FAIL (PROCESS_FAIL) while inquiry says SUCCESS",
        "paymentAmount.value 8004 → paying is refused by risk: FAIL, paymentResultCode RISK_REJECT",
        "paymentAmount.value 8101 → paymentSessionData is unreadable (component: SDK_CREATEPAYMENT_PARAMETER_ERROR)",
        "paymentAmount.value 8102 → the cashier URL answers HTTP 503 (component: SDK_CALL_URL_ERROR)",
        "paymentAmount.value 8103 → the cashier URL answers 200 with a body that is not a cashier (component: SDK_INTERNAL_ERROR)",
        "paymentAmount.value 8104 → the session data says environment \"prod\" (component with sandbox: true: SDK_INTEGRATION_ERROR)",
        "paymentAmount.value 8201 → createPaymentSession answers UNKNOWN_EXCEPTION (U); nothing is created",
        "paymentAmount.value 8202 → inquiryPayment answers REQUEST_TRAFFIC_EXCEED_LIMIT (U) once, then normally",
        "client id SANDBOX_… on /ams/api → ACCESS_DENIED (F): SANDBOX_ ids use /ams/sandbox/api",
    ]
}
