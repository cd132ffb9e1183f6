import Foundation

// Adyen's sessions flow (issue 27): the server-side session and the component's client-key
// calls on the same session. Key names are Adyen's own camelCase, so the default JSON coding
// matches the wire; optional fields left nil are not sent.
//
// Endpoints (server side, on the Checkout API base `…/v71`, header `X-API-Key`, optional
// `Idempotency-Key` on the POST), from Adyen's CheckoutService-v71.json:
//   POST /v71/sessions                          AdyenSessionRequest → 201 AdyenSessionResponse
//   GET  /v71/sessions/{id}?sessionResult=…     → 200 AdyenSessionResultResponse {id, status, …}
// Component side (the client-key host: `https://checkoutshopper-test.adyen.com/checkoutshopper/`,
// on the sandbox `<sandbox>/checkoutshopper/`; `?clientKey=test_…` on every call, never the API
// key; no Idempotency-Key), as Adyen's components call them (adyen-ios AdyenSession/API/,
// adyen-web packages/lib/src/core/Services/sessions/):
//   POST /checkoutshopper/v1/sessions/{id}/setup?clientKey=…
//        AdyenSessionSetupRequest {sessionData} → 200 AdyenSessionSetupResponse
//   POST /checkoutshopper/v1/sessions/{id}/payments?clientKey=…
//        AdyenSessionPaymentRequest {sessionData, paymentMethod, storePaymentMethod?} → 200 AdyenSessionPaymentResponse
//   POST /checkoutshopper/v1/sessions/{id}/paymentDetails?clientKey=…
//        AdyenSessionPaymentDetailsRequest {sessionData, details, paymentData?} → 200 AdyenSessionPaymentResponse
// Every answer carries a new `sessionData`: the next call must send that one (an older one is
// refused, 422 in Adyen's ServiceError shape). Errors everywhere are `AdyenServiceError`.
// `AdyenSessionPaths` spells the paths; `AdyenClientKey.sandbox` is the sandbox's test client key.
// Sandbox magic amount 70.06 (7006): `/payments` and the session's payments answer resultCode
// `RedirectShopper` with an `action` {type: "redirect", url, method: "GET", paymentMethodType:
// "cashapp"}; the shopper's visit (GET action.url, not following) answers 302 to the returnUrl
// with `?redirectResult=…`; `POST /payments/details {details: {redirectResult}}` (resp. the
// session's paymentDetails) then answers Authorised.

/// `storePaymentMethodMode` of a session: whether the shopper's method is stored when they pay.
public enum AdyenStorePaymentMethodMode: String, Codable, Hashable, Sendable, CaseIterable {
    /// Never stored; no toggle (the default).
    case disabled
    /// With a shopperReference: the component shows a "store for next time" toggle; stored
    /// when the payment says `storePaymentMethod: true`.
    case askForConsent
    /// With a shopperReference: stored without asking.
    case enabled
}

/// `POST /sessions` (Adyen's `CreateCheckoutSessionRequest`: the fields this tool sends; required
/// amount, merchantAccount, reference, returnUrl).
public struct AdyenSessionRequest: Codable, Hashable, Sendable {
    public var amount: AdyenAmount
    public var merchantAccount: String
    public var reference: String
    public var returnUrl: String
    public var countryCode: String?
    public var shopperReference: String?
    public var storePaymentMethodMode: AdyenStorePaymentMethodMode?
    /// `CardOnFile`, `Subscription` or `UnscheduledCardOnFile`.
    public var recurringProcessingModel: String?
    /// `Ecommerce`, `ContAuth`, `Moto` or `POS`.
    public var shopperInteraction: String?
    /// `iOS`, `Android` or `Web`.
    public var channel: String?
    public var shopperLocale: String?
    /// ISO 8601; at most 24 hours ahead (default: one hour after creation).
    public var expiresAt: String?
    public init(
        amount: AdyenAmount, merchantAccount: String, reference: String, returnUrl: String, countryCode: String? = nil,
        shopperReference: String? = nil, storePaymentMethodMode: AdyenStorePaymentMethodMode? = nil, recurringProcessingModel: String? = nil,
        shopperInteraction: String? = nil, channel: String? = "iOS", shopperLocale: String? = nil, expiresAt: String? = nil
    ) {
        self.amount = amount; self.merchantAccount = merchantAccount; self.reference = reference; self.returnUrl = returnUrl
        self.countryCode = countryCode; self.shopperReference = shopperReference; self.storePaymentMethodMode = storePaymentMethodMode
        self.recurringProcessingModel = recurringProcessingModel; self.shopperInteraction = shopperInteraction; self.channel = channel
        self.shopperLocale = shopperLocale; self.expiresAt = expiresAt
    }
}

/// The 201 answer of `POST /sessions` (`CreateCheckoutSessionResponse`): the request's fields
/// echoed, plus `id`, `sessionData` (opaque; the component's first call sends it) and `expiresAt`.
public struct AdyenSessionResponse: Codable, Hashable, Sendable {
    public var id: String
    public var sessionData: String?
    /// ISO 8601 with seconds and offset, e.g. `2026-11-26T10:53:18+00:00`.
    public var expiresAt: String
    public var amount: AdyenAmount
    public var merchantAccount: String
    public var reference: String
    public var returnUrl: String
    /// `embedded` (Drop-in/Components) or `hosted`.
    public var mode: String?
    public var countryCode: String?
    public var shopperReference: String?
    /// As sent (kept as text so an unknown value still decodes; see `storeMode`).
    public var storePaymentMethodMode: String?
    public var recurringProcessingModel: String?
    public var shopperInteraction: String?
    public var channel: String?
    public var shopperLocale: String?
    public init(
        id: String, sessionData: String?, expiresAt: String, amount: AdyenAmount, merchantAccount: String, reference: String, returnUrl: String,
        mode: String? = "embedded", countryCode: String? = nil, shopperReference: String? = nil, storePaymentMethodMode: String? = nil,
        recurringProcessingModel: String? = nil, shopperInteraction: String? = nil, channel: String? = nil, shopperLocale: String? = nil
    ) {
        self.id = id; self.sessionData = sessionData; self.expiresAt = expiresAt; self.amount = amount; self.merchantAccount = merchantAccount
        self.reference = reference; self.returnUrl = returnUrl; self.mode = mode; self.countryCode = countryCode
        self.shopperReference = shopperReference; self.storePaymentMethodMode = storePaymentMethodMode
        self.recurringProcessingModel = recurringProcessingModel; self.shopperInteraction = shopperInteraction; self.channel = channel
        self.shopperLocale = shopperLocale
    }

    public var storeMode: AdyenStorePaymentMethodMode? { storePaymentMethodMode.flatMap(AdyenStorePaymentMethodMode.init(rawValue:)) }
}

/// A session's `status` in `GET /sessions/{id}` (`SessionResultResponse.status`).
public enum AdyenSessionStatus: String, Codable, Hashable, Sendable, CaseIterable {
    /// Not paid yet (or the last attempt failed and the shopper may try again).
    case active
    /// The shopper cancelled the payment.
    case canceled
    /// Paid: the payment was authorised.
    case completed
    /// Past `expiresAt` unpaid.
    case expired
    /// A payment is under way (Received, Pending, or an action not yet completed).
    case paymentPending
    /// Refused (or errored): this session can no longer pay.
    case refused
}

/// One payment of a session, as `GET /sessions/{id}` lists it (`Payment`).
public struct AdyenSessionPayment: Codable, Hashable, Sendable {
    public var pspReference: String?
    /// `Authorised`, `Received` or `Pending` (the document's enum for this list).
    public var resultCode: String?
    public var amount: AdyenAmount?
    public init(pspReference: String?, resultCode: String?, amount: AdyenAmount?) {
        self.pspReference = pspReference; self.resultCode = resultCode; self.amount = amount
    }
}

/// `GET /sessions/{sessionId}?sessionResult=…` (`SessionResultResponse`).
public struct AdyenSessionResultResponse: Codable, Hashable, Sendable {
    public var id: String?
    /// One of `AdyenSessionStatus` (kept as text; see `sessionStatus`).
    public var status: String?
    public var reference: String?
    /// The session's authorised (and received/pending) payments.
    public var payments: [AdyenSessionPayment]?
    public var additionalData: [String: String]?
    public init(
        id: String?, status: String?, reference: String? = nil, payments: [AdyenSessionPayment]? = nil, additionalData: [String: String]? = nil
    ) {
        self.id = id; self.status = status; self.reference = reference; self.payments = payments; self.additionalData = additionalData
    }

    public var sessionStatus: AdyenSessionStatus? { status.flatMap(AdyenSessionStatus.init(rawValue:)) }
}

// MARK: - The component's client-key calls (checkoutshopper)

/// `POST …/v1/sessions/{id}/setup` (adyen-ios `SessionSetupRequest`: `{sessionData, order?}`;
/// adyen-web's `setup-session.ts` adds `browserInfo`).
public struct AdyenSessionSetupRequest: Codable, Hashable, Sendable {
    public var sessionData: String
    public init(sessionData: String) { self.sessionData = sessionData }
}

/// Its answer (adyen-ios `SessionSetupResponse`, adyen-web `CheckoutSessionSetupResponse`): the
/// session's payment methods (Cash App Pay with PayKit's clientId/scopeId, and the shopper's
/// stored methods when the session may use them), amount, and a new `sessionData`.
public struct AdyenSessionSetupResponse: Codable, Hashable, Sendable {
    /// `SessionSetupResponse.Configuration`: `enableStoreDetails` is true when the component
    /// shows the "store for next time" toggle (`storePaymentMethodMode` askForConsent with a
    /// shopperReference).
    public struct Configuration: Codable, Hashable, Sendable {
        public var enableStoreDetails: Bool?
        public var showRemovePaymentMethodButton: Bool?
        public init(enableStoreDetails: Bool?, showRemovePaymentMethodButton: Bool? = nil) {
            self.enableStoreDetails = enableStoreDetails; self.showRemovePaymentMethodButton = showRemovePaymentMethodButton
        }
    }
    public var id: String?
    public var sessionData: String
    public var amount: AdyenAmount
    public var countryCode: String?
    public var shopperLocale: String?
    public var expiresAt: String?
    public var returnUrl: String?
    public var paymentMethods: AdyenPaymentMethodsResponse
    public var configuration: Configuration?
    public init(
        id: String?, sessionData: String, amount: AdyenAmount, countryCode: String?, shopperLocale: String?, expiresAt: String?, returnUrl: String?,
        paymentMethods: AdyenPaymentMethodsResponse, configuration: Configuration?
    ) {
        self.id = id; self.sessionData = sessionData; self.amount = amount; self.countryCode = countryCode; self.shopperLocale = shopperLocale
        self.expiresAt = expiresAt; self.returnUrl = returnUrl; self.paymentMethods = paymentMethods; self.configuration = configuration
    }
}

/// `POST …/v1/sessions/{id}/payments` (adyen-ios `PaymentsRequest`: `sessionData`,
/// `paymentMethod`, `storePaymentMethod`, `supportNativeRedirect`, `checkoutAttemptId`, …). The
/// amount, reference and shopper come from the session, not from this body.
public struct AdyenSessionPaymentRequest: Codable, Hashable, Sendable {
    public var sessionData: String
    /// Cash App Pay's details: the grants as for `/payments`, or a `storedPaymentMethodId`.
    public var paymentMethod: AdyenCashAppDetails
    /// The shopper's choice on the "store for next time" toggle (askForConsent sessions).
    public var storePaymentMethod: Bool?
    public var supportNativeRedirect: Bool?
    public var checkoutAttemptId: String?
    public init(
        sessionData: String, paymentMethod: AdyenCashAppDetails, storePaymentMethod: Bool? = nil, supportNativeRedirect: Bool? = nil,
        checkoutAttemptId: String? = nil
    ) {
        self.sessionData = sessionData; self.paymentMethod = paymentMethod; self.storePaymentMethod = storePaymentMethod
        self.supportNativeRedirect = supportNativeRedirect; self.checkoutAttemptId = checkoutAttemptId
    }
}

/// `POST …/v1/sessions/{id}/paymentDetails` (adyen-ios `PaymentDetailsRequest`:
/// `{details, paymentData?, sessionData}`): completes a payment whose answer had an `action`.
public struct AdyenSessionPaymentDetailsRequest: Codable, Hashable, Sendable {
    public var sessionData: String
    /// E.g. `{"redirectResult": "…"}` from the shopper's return to the returnUrl.
    public var details: [String: String]
    public var paymentData: String?
    public init(sessionData: String, details: [String: String], paymentData: String? = nil) {
        self.sessionData = sessionData; self.details = details; self.paymentData = paymentData
    }
}

/// The answer of the session's payments and paymentDetails calls (adyen-ios `PaymentsResponse`,
/// adyen-web `CheckoutSessionPaymentResponse`): `resultCode`, an `action` to perform (then
/// paymentDetails), the new `sessionData`, and `sessionResult` for `GET /sessions/{id}`. There
/// is no pspReference: the server reads it from the session's result or the AUTHORISATION webhook.
public struct AdyenSessionPaymentResponse: Codable, Hashable, Sendable {
    public var sessionData: String
    public var resultCode: String
    public var action: AdyenPaymentResponse.Action?
    public var sessionResult: String?
    /// Given with Refused / Error (the sandbox's reason), as on `/payments`.
    public var refusalReason: String?
    public init(sessionData: String, resultCode: String, action: AdyenPaymentResponse.Action? = nil, sessionResult: String?, refusalReason: String? = nil) {
        self.sessionData = sessionData; self.resultCode = resultCode; self.action = action; self.sessionResult = sessionResult
        self.refusalReason = refusalReason
    }

    public var result: AdyenResultCode? { AdyenResultCode(rawValue: resultCode) }
}

/// The paths of the sessions flow, relative to the Checkout API base (`…/v71`) for the server
/// side and to the client-key host's origin for the component side.
public enum AdyenSessionPaths {
    /// `POST` on the Checkout API base.
    public static let create = "/sessions"

    /// `GET` on the Checkout API base.
    public static func result(sessionID: String, sessionResult: String) -> String {
        "/sessions/\(percentEncoded(sessionID))?sessionResult=\(percentEncoded(sessionResult))"
    }

    /// The component's calls, from the client-key host's origin (`https://checkoutshopper-test.adyen.com`
    /// or the sandbox's): `/checkoutshopper/v1/sessions/{id}/{call}?clientKey=…`.
    public static func component(_ call: ComponentCall, sessionID: String, clientKey: String) -> String {
        "/checkoutshopper/v1/sessions/\(percentEncoded(sessionID))/\(call.rawValue)?clientKey=\(percentEncoded(clientKey))"
    }

    public enum ComponentCall: String, Sendable, CaseIterable {
        case setup, payments, paymentDetails
    }

    /// Everything but unreserved characters percent-encoded (ids and keys are plain ASCII anyway).
    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// Client keys: what the component authenticates with on the client-key host (`test_…` or
/// `live_…`; Adyen's components check `^[a-z]{4,8}_[a-zA-Z0-9]{8,128}$`). Never an API key.
public enum AdyenClientKey {
    /// The sandbox's test client key (any well-formed `test_` key is accepted there).
    public static let sandbox = "test_ADYENSANDBOXCLIENTKEY0001"

    /// Whether `key` has the shape Adyen's components accept.
    public static func isWellFormed(_ key: String) -> Bool {
        let parts = key.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let environment = parts[0], rest = parts[1]
        return (4...8).contains(environment.count) && environment.allSatisfy { $0.isASCII && $0.isLowercase }
            && (8...128).contains(rest.count) && rest.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
