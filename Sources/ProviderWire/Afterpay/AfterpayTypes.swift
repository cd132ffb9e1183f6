/// Afterpay money: a decimal string amount ("19.99") and a currency, as on the wire.
public struct AfterpayMoney: Codable, Hashable, Sendable {
    public var amount: String
    public var currency: String
    public init(amount: String, currency: String) { self.amount = amount; self.currency = currency }
}

/// `POST /v2/checkouts` (the fields this client sends; the API has more).
public struct AfterpayCheckoutRequest: Codable, Hashable, Sendable {
    public struct Consumer: Codable, Hashable, Sendable {
        public var email: String?
        public var givenNames: String?
        public var surname: String?
        public var phoneNumber: String?
        public init(email: String?, givenNames: String? = nil, surname: String? = nil, phoneNumber: String? = nil) {
            self.email = email; self.givenNames = givenNames; self.surname = surname; self.phoneNumber = phoneNumber
        }
    }

    public struct Merchant: Codable, Hashable, Sendable {
        public var redirectConfirmUrl: String?
        public var redirectCancelUrl: String?
        public var popupOriginUrl: String?
        public var name: String?
        public init(redirectConfirmUrl: String?, redirectCancelUrl: String?, popupOriginUrl: String? = nil, name: String? = nil) {
            self.redirectConfirmUrl = redirectConfirmUrl; self.redirectCancelUrl = redirectCancelUrl
            self.popupOriginUrl = popupOriginUrl; self.name = name
        }
    }

    public struct Item: Codable, Hashable, Sendable {
        public var name: String
        public var sku: String?
        public var quantity: Int
        public var price: AfterpayMoney
        public init(name: String, sku: String?, quantity: Int, price: AfterpayMoney) {
            self.name = name; self.sku = sku; self.quantity = quantity; self.price = price
        }
    }

    public struct DiscountEntry: Codable, Hashable, Sendable {
        public var displayName: String
        public var amount: AfterpayMoney
        public init(displayName: String, amount: AfterpayMoney) { self.displayName = displayName; self.amount = amount }
    }

    public var amount: AfterpayMoney?
    public var consumer: Consumer?
    public var merchantReference: String?
    public var merchant: Merchant?
    public var items: [Item]?
    public var discounts: [DiscountEntry]?
    public var taxAmount: AfterpayMoney?
    public var shippingAmount: AfterpayMoney?
    public var mode: String?
    public var isCashAppPay: Bool?

    public init(
        amount: AfterpayMoney?, consumer: Consumer?, merchantReference: String?, merchant: Merchant?,
        items: [Item]? = nil, discounts: [DiscountEntry]? = nil, taxAmount: AfterpayMoney? = nil,
        shippingAmount: AfterpayMoney? = nil, mode: String? = "standard", isCashAppPay: Bool? = true
    ) {
        self.amount = amount; self.consumer = consumer; self.merchantReference = merchantReference
        self.merchant = merchant; self.items = items; self.discounts = discounts; self.taxAmount = taxAmount
        self.shippingAmount = shippingAmount; self.mode = mode; self.isCashAppPay = isCashAppPay
    }
}

/// 201 answer of `POST /v2/checkouts`.
public struct AfterpayCheckoutResponse: Codable, Hashable, Sendable {
    public var token: String
    public var expires: String
    public var redirectCheckoutUrl: String
    public init(token: String, expires: String, redirectCheckoutUrl: String) {
        self.token = token; self.expires = expires; self.redirectCheckoutUrl = redirectCheckoutUrl
    }
}

/// `{"errorCode", "errorId", "message", "httpStatusCode"}`: every Afterpay error.
public struct AfterpayError: Codable, Hashable, Sendable, Error {
    public var errorCode: String
    public var errorId: String
    public var message: String
    public var httpStatusCode: Int
    public init(errorCode: String, errorId: String, message: String, httpStatusCode: Int) {
        self.errorCode = errorCode; self.errorId = errorId; self.message = message; self.httpStatusCode = httpStatusCode
    }
}

/// `POST /v2/payments/sign-payment` and its answer.
public struct AfterpaySignRequest: Codable, Hashable, Sendable {
    public var token: String
    public init(token: String) { self.token = token }
}

public struct AfterpaySignResponse: Codable, Hashable, Sendable {
    public var externalBrandId: String
    public var jwtToken: String
    public var redirectUrl: String
    public init(externalBrandId: String, jwtToken: String, redirectUrl: String) {
        self.externalBrandId = externalBrandId; self.jwtToken = jwtToken; self.redirectUrl = redirectUrl
    }
}

/// The signed payload of `jwtToken`.
public struct AfterpaySignedPayment: Codable, Hashable, Sendable {
    public struct Amount: Codable, Hashable, Sendable {
        public var amount: String
        public var currency: String
        public var symbol: String
        public init(amount: String, currency: String, symbol: String) { self.amount = amount; self.currency = currency; self.symbol = symbol }
    }
    public var amount: Amount
    public var token: String
    public var externalMerchantId: String
    public var redirectUrl: String
    public init(amount: Amount, token: String, externalMerchantId: String, redirectUrl: String) {
        self.amount = amount; self.token = token; self.externalMerchantId = externalMerchantId; self.redirectUrl = redirectUrl
    }
}

/// `POST /v2/payments/validate-payment` and its answer.
public struct AfterpayValidateRequest: Codable, Hashable, Sendable {
    public var jwt: String
    public var externalCustomerId: String
    public var externalGrantId: String
    public init(jwt: String, externalCustomerId: String, externalGrantId: String) {
        self.jwt = jwt; self.externalCustomerId = externalCustomerId; self.externalGrantId = externalGrantId
    }
}

public struct AfterpayValidateResponse: Codable, Hashable, Sendable {
    public var cashAppTag: String?
    public var status: String
    public var callbackBaseUrl: String?
    public var message: String?
    public init(cashAppTag: String?, status: String, callbackBaseUrl: String?, message: String? = nil) {
        self.cashAppTag = cashAppTag; self.status = status; self.callbackBaseUrl = callbackBaseUrl; self.message = message
    }
}

/// `POST /v2/payments/capture` and the Payment it returns.
public struct AfterpayCaptureRequest: Codable, Hashable, Sendable {
    public var token: String
    public var merchantReference: String?
    public var amount: AfterpayMoney?
    public var grantId: String?
    public init(token: String, merchantReference: String?, amount: AfterpayMoney? = nil, grantId: String?) {
        self.token = token; self.merchantReference = merchantReference; self.amount = amount; self.grantId = grantId
    }
}

public struct AfterpayPayment: Codable, Hashable, Sendable {
    public struct Event: Codable, Hashable, Sendable {
        public var id: String
        public var created: String
        public var type: String
        public var amount: AfterpayMoney
        public init(id: String, created: String, type: String, amount: AfterpayMoney) {
            self.id = id; self.created = created; self.type = type; self.amount = amount
        }
    }
    public var id: String
    public var token: String
    public var status: String
    public var created: String
    public var originalAmount: AfterpayMoney
    public var openToCaptureAmount: AfterpayMoney
    public var paymentState: String
    public var merchantReference: String?
    public var refunds: [AfterpayMoney]
    public var events: [Event]
    public init(
        id: String, token: String, status: String, created: String, originalAmount: AfterpayMoney,
        openToCaptureAmount: AfterpayMoney, paymentState: String, merchantReference: String?, refunds: [AfterpayMoney] = [],
        events: [Event]
    ) {
        self.id = id; self.token = token; self.status = status; self.created = created; self.originalAmount = originalAmount
        self.openToCaptureAmount = openToCaptureAmount; self.paymentState = paymentState
        self.merchantReference = merchantReference; self.refunds = refunds; self.events = events
    }
}

/// `GET /v2/configuration`: the merchant's order limits (`minimumAmount` may be absent when the
/// account has none), and with `include=publicid` its public id. Afterpay's answer carries no
/// Cash App client id: the Afterpay SDK derives that from the environment it is configured for.
public struct AfterpayMerchantConfiguration: Codable, Hashable, Sendable {
    public var minimumAmount: AfterpayMoney?
    public var maximumAmount: AfterpayMoney?
    public var publicId: String?
    public init(minimumAmount: AfterpayMoney?, maximumAmount: AfterpayMoney?, publicId: String? = nil) {
        self.minimumAmount = minimumAmount; self.maximumAmount = maximumAmount; self.publicId = publicId
    }
}

/// `GET /v2/configuration/mappings`: the Cash App Pay brand the Afterpay account is mapped to
/// (for Cash App Pay on file).
public struct AfterpayConfigurationMappings: Codable, Hashable, Sendable {
    public var name: String
    public var externalBrandId: String
    public init(name: String, externalBrandId: String) { self.name = name; self.externalBrandId = externalBrandId }
}
