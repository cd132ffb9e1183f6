/// Adyen Checkout API v71/v72 bodies (the fields this tool sends and reads; the API has more).
/// Key names are Adyen's own camelCase, so the default JSON coding matches the wire.

/// Money as Adyen sends it: integer minor units and an ISO 4217 code.
public struct AdyenAmount: Codable, Hashable, Sendable {
    public var currency: String
    public var value: Int
    public init(currency: String, value: Int) { self.currency = currency; self.value = value }
}

/// `POST /paymentMethods`.
public struct AdyenPaymentMethodsRequest: Codable, Hashable, Sendable {
    public var merchantAccount: String
    public var amount: AdyenAmount?
    public var countryCode: String?
    public var channel: String?
    public var shopperReference: String?
    public init(merchantAccount: String, amount: AdyenAmount?, countryCode: String? = nil, channel: String? = "iOS", shopperReference: String?) {
        self.merchantAccount = merchantAccount; self.amount = amount; self.countryCode = countryCode
        self.channel = channel; self.shopperReference = shopperReference
    }
}

/// One method `/paymentMethods` offers; Cash App Pay's carries the PayKit client and scope ids.
public struct AdyenPaymentMethod: Codable, Hashable, Sendable {
    public struct Configuration: Codable, Hashable, Sendable {
        public var clientId: String?
        public var scopeId: String?
        public init(clientId: String?, scopeId: String?) { self.clientId = clientId; self.scopeId = scopeId }
    }
    public var type: String
    public var name: String?
    public var configuration: Configuration?
    public init(type: String, name: String?, configuration: Configuration?) {
        self.type = type; self.name = name; self.configuration = configuration
    }
}

/// A shopper's stored method, as `/paymentMethods` and `/storedPaymentMethods` list it.
public struct AdyenStoredPaymentMethod: Codable, Hashable, Sendable {
    public var id: String
    public var type: String
    public var name: String?
    public var cashtag: String?
    public var supportedShopperInteractions: [String]?
    public var supportedRecurringProcessingModels: [String]?
    public init(
        id: String, type: String, name: String?, cashtag: String?, supportedShopperInteractions: [String]? = ["ContAuth"],
        supportedRecurringProcessingModels: [String]? = ["CardOnFile"]
    ) {
        self.id = id; self.type = type; self.name = name; self.cashtag = cashtag
        self.supportedShopperInteractions = supportedShopperInteractions
        self.supportedRecurringProcessingModels = supportedRecurringProcessingModels
    }
}

public struct AdyenPaymentMethodsResponse: Codable, Hashable, Sendable {
    public var paymentMethods: [AdyenPaymentMethod]?
    public var storedPaymentMethods: [AdyenStoredPaymentMethod]?
    public init(paymentMethods: [AdyenPaymentMethod]?, storedPaymentMethods: [AdyenStoredPaymentMethod]?) {
        self.paymentMethods = paymentMethods; self.storedPaymentMethods = storedPaymentMethods
    }

    /// The Cash App Pay entry, whose configuration the customer request is made with.
    public var cashApp: AdyenPaymentMethod? { paymentMethods?.first { $0.type == AdyenCashAppDetails.type } }
}

/// `paymentMethod` of a Cash App Pay payment (Adyen's `CashAppDetails`).
public struct AdyenCashAppDetails: Codable, Hashable, Sendable {
    public static let type = "cashapp"
    public var type: String
    public var subtype: String?
    /// The ONE_TIME grant of an approved customer request.
    public var grantId: String?
    /// The EXTENDED (on-file) grant, when the shopper stores the method.
    public var onFileGrantId: String?
    public var customerId: String?
    public var cashtag: String?
    public var requestId: String?
    public var checkoutAttemptId: String?
    public var storedPaymentMethodId: String?
    public var recurringDetailReference: String?
    public var sdkData: String?
    public init(
        grantId: String? = nil, onFileGrantId: String? = nil, customerId: String? = nil, cashtag: String? = nil,
        requestId: String? = nil, storedPaymentMethodId: String? = nil
    ) {
        type = Self.type
        self.grantId = grantId; self.onFileGrantId = onFileGrantId; self.customerId = customerId
        self.cashtag = cashtag; self.requestId = requestId; self.storedPaymentMethodId = storedPaymentMethodId
    }
}

/// `POST /payments`.
public struct AdyenPaymentRequest: Codable, Hashable, Sendable {
    public var amount: AdyenAmount
    public var merchantAccount: String
    public var paymentMethod: AdyenCashAppDetails
    public var reference: String
    public var returnUrl: String
    public var shopperReference: String?
    public var storePaymentMethod: Bool?
    public var recurringProcessingModel: String?
    public var shopperInteraction: String?
    public var channel: String?
    public init(
        amount: AdyenAmount, merchantAccount: String, paymentMethod: AdyenCashAppDetails, reference: String, returnUrl: String,
        shopperReference: String?, storePaymentMethod: Bool? = nil, recurringProcessingModel: String? = nil,
        shopperInteraction: String? = nil, channel: String? = "iOS"
    ) {
        self.amount = amount; self.merchantAccount = merchantAccount; self.paymentMethod = paymentMethod
        self.reference = reference; self.returnUrl = returnUrl; self.shopperReference = shopperReference
        self.storePaymentMethod = storePaymentMethod; self.recurringProcessingModel = recurringProcessingModel
        self.shopperInteraction = shopperInteraction; self.channel = channel
    }
}

/// `paymentMethod` of an Apple Pay payment (Adyen's `ApplePayDetails`).
public struct AdyenApplePayDetails: Codable, Hashable, Sendable {
    public static let type = "applepay"
    public var type: String
    /// The base64 of the token's `paymentData` JSON (`WalletPaymentToken.applePayToken`).
    public var applePayToken: String
    public init(applePayToken: String) {
        type = Self.type
        self.applePayToken = applePayToken
    }
}

/// `POST /payments` paid with an Apple Pay token: `AdyenPaymentRequest`'s body with
/// `ApplePayDetails` as its method (a second type, so Cash App callers stay as they are).
public struct AdyenApplePayPaymentRequest: Codable, Hashable, Sendable {
    public var amount: AdyenAmount
    public var merchantAccount: String
    public var paymentMethod: AdyenApplePayDetails
    public var reference: String
    public var returnUrl: String
    public var shopperReference: String?
    public var channel: String?
    public init(
        amount: AdyenAmount, merchantAccount: String, paymentMethod: AdyenApplePayDetails, reference: String, returnUrl: String,
        shopperReference: String? = nil, channel: String? = "iOS"
    ) {
        self.amount = amount; self.merchantAccount = merchantAccount; self.paymentMethod = paymentMethod
        self.reference = reference; self.returnUrl = returnUrl; self.shopperReference = shopperReference; self.channel = channel
    }
}

/// The method a payment was made with, as `/payments` answers it (`{"type": "applepay", "brand": "visa_applepay"}`).
public struct AdyenResponsePaymentMethod: Codable, Hashable, Sendable {
    public var type: String?
    public var brand: String?
    public init(type: String?, brand: String?) { self.type = type; self.brand = brand }
}

/// `resultCode` values that decide a Cash App Pay payment (the API has more; unknown ones are kept as text).
public enum AdyenResultCode: String, Codable, Sendable {
    case authorised = "Authorised", received = "Received", pending = "Pending", cancelled = "Cancelled"
    case refused = "Refused", error = "Error", redirectShopper = "RedirectShopper"
}

/// The answer of `/payments` and `/payments/details`.
public struct AdyenPaymentResponse: Codable, Hashable, Sendable {
    public struct Action: Codable, Hashable, Sendable {
        public var type: String
        public var url: String?
        public var method: String?
        public var paymentMethodType: String?
        public var paymentData: String?
        public init(type: String, url: String?, method: String?, paymentMethodType: String?, paymentData: String? = nil) {
            self.type = type; self.url = url; self.method = method; self.paymentMethodType = paymentMethodType; self.paymentData = paymentData
        }
    }
    public var pspReference: String?
    public var resultCode: String?
    public var action: Action?
    public var refusalReason: String?
    public var refusalReasonCode: String?
    public var additionalData: [String: String]?
    public var amount: AdyenAmount?
    public var merchantReference: String?
    /// Apple Pay's type and brand; Cash App payments leave it out.
    public var paymentMethod: AdyenResponsePaymentMethod?
    public init(
        pspReference: String?, resultCode: String?, action: Action? = nil, refusalReason: String? = nil, refusalReasonCode: String? = nil,
        additionalData: [String: String]? = nil, amount: AdyenAmount?, merchantReference: String?, paymentMethod: AdyenResponsePaymentMethod? = nil
    ) {
        self.pspReference = pspReference; self.resultCode = resultCode; self.action = action; self.refusalReason = refusalReason
        self.refusalReasonCode = refusalReasonCode; self.additionalData = additionalData; self.amount = amount
        self.merchantReference = merchantReference; self.paymentMethod = paymentMethod
    }

    public var result: AdyenResultCode? { resultCode.flatMap(AdyenResultCode.init(rawValue:)) }
    /// The stored method a payment with `storePaymentMethod` created.
    public var storedPaymentMethodID: String? { additionalData?["tokenization.storedPaymentMethodId"] }
}

/// `POST /payments/details`.
public struct AdyenPaymentDetailsRequest: Codable, Hashable, Sendable {
    public var details: [String: String]
    public var paymentData: String?
    public init(details: [String: String], paymentData: String?) { self.details = details; self.paymentData = paymentData }
}

/// `POST /payments/{pspReference}/captures|cancels|refunds`.
public struct AdyenModificationRequest: Codable, Hashable, Sendable {
    public var merchantAccount: String
    public var amount: AdyenAmount?
    public var reference: String?
    public init(merchantAccount: String, amount: AdyenAmount?, reference: String? = nil) {
        self.merchantAccount = merchantAccount; self.amount = amount; self.reference = reference
    }
}

/// A modification's 201 answer; the outcome arrives later, by webhook.
public struct AdyenModificationResponse: Codable, Hashable, Sendable {
    public var merchantAccount: String
    public var paymentPspReference: String
    public var pspReference: String
    public var reference: String?
    public var status: String
    public var amount: AdyenAmount?
    public init(merchantAccount: String, paymentPspReference: String, pspReference: String, reference: String?, status: String, amount: AdyenAmount?) {
        self.merchantAccount = merchantAccount; self.paymentPspReference = paymentPspReference; self.pspReference = pspReference
        self.reference = reference; self.status = status; self.amount = amount
    }
}

/// `GET /storedPaymentMethods?shopperReference=…&merchantAccount=…`.
public struct AdyenStoredPaymentMethodsResponse: Codable, Hashable, Sendable {
    public var merchantAccount: String?
    public var shopperReference: String?
    public var storedPaymentMethods: [AdyenStoredPaymentMethod]?
    public init(merchantAccount: String?, shopperReference: String?, storedPaymentMethods: [AdyenStoredPaymentMethod]?) {
        self.merchantAccount = merchantAccount; self.shopperReference = shopperReference; self.storedPaymentMethods = storedPaymentMethods
    }
}

/// Adyen's error body (`ServiceError`).
public struct AdyenServiceError: Codable, Hashable, Sendable, Error {
    public var status: Int
    public var errorCode: String
    public var message: String
    public var errorType: String
    public var pspReference: String?
    public init(status: Int, errorCode: String, message: String, errorType: String, pspReference: String? = nil) {
        self.status = status; self.errorCode = errorCode; self.message = message; self.errorType = errorType; self.pspReference = pspReference
    }
}
