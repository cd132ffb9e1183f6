/// Square Payments API bodies (the fields this tool sends and reads; the API has more). Square
/// spells its keys in snake_case; the coding keys say so field by field.

/// Money as Square sends it: integer minor units and an ISO 4217 code.
public struct SquareMoney: Codable, Hashable, Sendable {
    public var amount: Int
    public var currency: String
    public init(amount: Int, currency: String) { self.amount = amount; self.currency = currency }
}

/// `POST /v2/payments` (CreatePayment).
public struct SquareCreatePaymentRequest: Codable, Hashable, Sendable {
    public var sourceID: String
    public var idempotencyKey: String
    public var amountMoney: SquareMoney?
    public var tipMoney: SquareMoney?
    public var appFeeMoney: SquareMoney?
    public var autocomplete: Bool?
    /// ISO 8601 duration, only with `autocomplete: false` (e.g. `PT10M`).
    public var delayDuration: String?
    /// `CANCEL` (default) or `COMPLETE`.
    public var delayAction: String?
    public var acceptPartialAuthorization: Bool?
    public var referenceID: String?
    public var orderID: String?
    public var locationID: String?
    public var note: String?
    /// When a payment taken offline reaches Square: when the reader took it.
    public var offlinePaymentDetails: SquareOfflinePaymentDetails?

    public init(
        sourceID: String, idempotencyKey: String, amountMoney: SquareMoney?, tipMoney: SquareMoney? = nil, appFeeMoney: SquareMoney? = nil,
        autocomplete: Bool? = nil, delayDuration: String? = nil, delayAction: String? = nil, acceptPartialAuthorization: Bool? = nil,
        referenceID: String? = nil, orderID: String? = nil, locationID: String? = nil, note: String? = nil,
        offlinePaymentDetails: SquareOfflinePaymentDetails? = nil
    ) {
        self.sourceID = sourceID; self.idempotencyKey = idempotencyKey; self.amountMoney = amountMoney; self.tipMoney = tipMoney
        self.appFeeMoney = appFeeMoney; self.autocomplete = autocomplete; self.delayDuration = delayDuration; self.delayAction = delayAction
        self.acceptPartialAuthorization = acceptPartialAuthorization; self.referenceID = referenceID; self.orderID = orderID
        self.locationID = locationID; self.note = note; self.offlinePaymentDetails = offlinePaymentDetails
    }

    enum CodingKeys: String, CodingKey {
        case offlinePaymentDetails = "offline_payment_details"
        case sourceID = "source_id", idempotencyKey = "idempotency_key", amountMoney = "amount_money", tipMoney = "tip_money"
        case appFeeMoney = "app_fee_money", autocomplete, delayDuration = "delay_duration", delayAction = "delay_action"
        case acceptPartialAuthorization = "accept_partial_authorization", referenceID = "reference_id", orderID = "order_id"
        case locationID = "location_id", note
    }
}

/// The card a payment was taken with.
public struct SquareCard: Codable, Hashable, Sendable {
    public var cardBrand: String?
    public var last4: String?
    public var expMonth: Int?
    public var expYear: Int?
    public var cardholderName: String?
    public var fingerprint: String?

    public init(cardBrand: String?, last4: String?, expMonth: Int? = nil, expYear: Int? = nil, cardholderName: String? = nil, fingerprint: String? = nil) {
        self.cardBrand = cardBrand; self.last4 = last4; self.expMonth = expMonth; self.expYear = expYear
        self.cardholderName = cardholderName; self.fingerprint = fingerprint
    }

    enum CodingKeys: String, CodingKey {
        case cardBrand = "card_brand", last4 = "last_4", expMonth = "exp_month", expYear = "exp_year"
        case cardholderName = "cardholder_name", fingerprint
    }
}

/// `card_details` of a card payment: the card, how it was read, and the chip's application.
public struct SquareCardDetails: Codable, Hashable, Sendable {
    /// AUTHORIZED, CAPTURED, VOIDED or FAILED.
    public var status: String?
    public var card: SquareCard?
    /// KEYED, SWIPED, EMV, ON_FILE or CONTACTLESS.
    public var entryMethod: String?
    public var cvvStatus: String?
    public var avsStatus: String?
    public var applicationName: String?
    /// The chip application's AID (EMV and contactless reads).
    public var applicationIdentifier: String?

    public init(
        status: String?, card: SquareCard?, entryMethod: String?, cvvStatus: String? = nil, avsStatus: String? = nil,
        applicationName: String? = nil, applicationIdentifier: String? = nil
    ) {
        self.status = status; self.card = card; self.entryMethod = entryMethod; self.cvvStatus = cvvStatus; self.avsStatus = avsStatus
        self.applicationName = applicationName; self.applicationIdentifier = applicationIdentifier
    }

    enum CodingKeys: String, CodingKey {
        case status, card, entryMethod = "entry_method", cvvStatus = "cvv_status", avsStatus = "avs_status"
        case applicationName = "application_name", applicationIdentifier = "application_identifier"
    }
}

/// Square's record of a payment taken offline and uploaded later.
public struct SquareOfflinePaymentDetails: Codable, Hashable, Sendable {
    public var clientCreatedAt: String?
    public init(clientCreatedAt: String?) { self.clientCreatedAt = clientCreatedAt }
    enum CodingKeys: String, CodingKey { case clientCreatedAt = "client_created_at" }
}

/// A payment as every Payments API answer carries it.
public struct SquarePayment: Codable, Hashable, Sendable {
    public var id: String
    /// APPROVED, PENDING, COMPLETED, CANCELED or FAILED.
    public var status: String
    public var amountMoney: SquareMoney?
    public var tipMoney: SquareMoney?
    public var totalMoney: SquareMoney?
    public var appFeeMoney: SquareMoney?
    public var approvedMoney: SquareMoney?
    public var delayDuration: String?
    public var delayAction: String?
    /// RFC 3339; when the delay action applies by itself.
    public var delayedUntil: String?
    public var sourceType: String?
    public var cardDetails: SquareCardDetails?
    public var locationID: String?
    public var orderID: String?
    public var referenceID: String?
    public var note: String?
    public var receiptNumber: String?
    public var receiptURL: String?
    public var isOfflinePayment: Bool?
    public var offlinePaymentDetails: SquareOfflinePaymentDetails?
    public var createdAt: String?
    public var updatedAt: String?
    public var versionToken: String?

    public init(
        id: String, status: String, amountMoney: SquareMoney?, tipMoney: SquareMoney? = nil, totalMoney: SquareMoney? = nil,
        appFeeMoney: SquareMoney? = nil, approvedMoney: SquareMoney? = nil, delayDuration: String? = nil, delayAction: String? = nil,
        delayedUntil: String? = nil, sourceType: String? = "CARD", cardDetails: SquareCardDetails? = nil, locationID: String? = nil,
        orderID: String? = nil, referenceID: String? = nil, note: String? = nil, receiptNumber: String? = nil, receiptURL: String? = nil,
        isOfflinePayment: Bool? = nil, offlinePaymentDetails: SquareOfflinePaymentDetails? = nil, createdAt: String? = nil,
        updatedAt: String? = nil, versionToken: String? = nil
    ) {
        self.id = id; self.status = status; self.amountMoney = amountMoney; self.tipMoney = tipMoney; self.totalMoney = totalMoney
        self.appFeeMoney = appFeeMoney; self.approvedMoney = approvedMoney; self.delayDuration = delayDuration; self.delayAction = delayAction
        self.delayedUntil = delayedUntil; self.sourceType = sourceType; self.cardDetails = cardDetails; self.locationID = locationID
        self.orderID = orderID; self.referenceID = referenceID; self.note = note; self.receiptNumber = receiptNumber
        self.receiptURL = receiptURL; self.isOfflinePayment = isOfflinePayment; self.offlinePaymentDetails = offlinePaymentDetails
        self.createdAt = createdAt; self.updatedAt = updatedAt; self.versionToken = versionToken
    }

    enum CodingKeys: String, CodingKey {
        case id, status, amountMoney = "amount_money", tipMoney = "tip_money", totalMoney = "total_money", appFeeMoney = "app_fee_money"
        case approvedMoney = "approved_money", delayDuration = "delay_duration", delayAction = "delay_action", delayedUntil = "delayed_until"
        case sourceType = "source_type", cardDetails = "card_details", locationID = "location_id", orderID = "order_id"
        case referenceID = "reference_id", note, receiptNumber = "receipt_number", receiptURL = "receipt_url"
        case isOfflinePayment = "is_offline_payment", offlinePaymentDetails = "offline_payment_details"
        case createdAt = "created_at", updatedAt = "updated_at", versionToken = "version_token"
    }
}

/// One entry of Square's `errors` array.
public struct SquareError: Codable, Hashable, Sendable {
    /// API_ERROR, AUTHENTICATION_ERROR, INVALID_REQUEST_ERROR, RATE_LIMIT_ERROR, PAYMENT_METHOD_ERROR, REFUND_ERROR, …
    public var category: String
    public var code: String
    public var detail: String?
    public var field: String?
    public init(category: String, code: String, detail: String? = nil, field: String? = nil) {
        self.category = category; self.code = code; self.detail = detail; self.field = field
    }
}

/// Every Payments API answer: the payment, the errors, or (a decline) both.
public struct SquarePaymentResponse: Codable, Hashable, Sendable {
    public var payment: SquarePayment?
    public var errors: [SquareError]?
    public init(payment: SquarePayment?, errors: [SquareError]? = nil) { self.payment = payment; self.errors = errors }
}

/// `GET /v2/payments` (ListPayments), newest first by default.
public struct SquareListPaymentsResponse: Codable, Hashable, Sendable {
    public var payments: [SquarePayment]?
    public var cursor: String?
    public var errors: [SquareError]?
    public init(payments: [SquarePayment]?, cursor: String? = nil, errors: [SquareError]? = nil) {
        self.payments = payments; self.cursor = cursor; self.errors = errors
    }
}

/// `POST /v2/payments/cancel` (CancelPaymentByIdempotencyKey); the answer is `{}`.
public struct SquareCancelByIdempotencyKeyRequest: Codable, Hashable, Sendable {
    public var idempotencyKey: String
    public init(idempotencyKey: String) { self.idempotencyKey = idempotencyKey }
    enum CodingKeys: String, CodingKey { case idempotencyKey = "idempotency_key" }
}

/// `POST /v2/payments/{id}/complete`: an optional version token guards a stale complete.
public struct SquareCompletePaymentRequest: Codable, Hashable, Sendable {
    public var versionToken: String?
    public init(versionToken: String?) { self.versionToken = versionToken }
    enum CodingKeys: String, CodingKey { case versionToken = "version_token" }
}
