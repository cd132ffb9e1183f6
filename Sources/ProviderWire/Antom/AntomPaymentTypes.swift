/// Antom (Alipay+) Payments API bodies: the fields this tool sends and reads. Antom spells its
/// keys in lowerCamelCase, as Swift does, so no coding keys are needed.

/// `result` in every response and notification.
public struct AntomResult: Codable, Hashable, Sendable {
    public var resultCode: String
    /// `S` success, `F` failed, `U` unknown (ask again with the same ids).
    public var resultStatus: String
    public var resultMessage: String?

    public init(resultCode: String, resultStatus: String, resultMessage: String? = nil) {
        self.resultCode = resultCode
        self.resultStatus = resultStatus
        self.resultMessage = resultMessage
    }

    public static let success = AntomResult(resultCode: "SUCCESS", resultStatus: "S", resultMessage: "success")
    public var succeeded: Bool { resultStatus == "S" }
}

/// Money as Antom sends it: `value` is a string of minor units ("129000" for ฿1,290.00).
public struct AntomAmount: Codable, Hashable, Sendable {
    public var currency: String
    public var value: String

    public init(currency: String, value: String) {
        self.currency = currency
        self.value = value
    }

    public init(currency: String, minorUnits: Int) {
        self.init(currency: currency, value: String(minorUnits))
    }

    /// The value as minor units; nil when it is not a plain non-negative integer.
    public var minorUnits: Int? {
        guard !value.isEmpty, value.count <= 18, value.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(value)
    }
}

/// The merchant's order a payment belongs to; one `referenceOrderId` for every attempt.
public struct AntomOrder: Codable, Hashable, Sendable {
    public var referenceOrderId: String
    public var orderDescription: String
    public var orderAmount: AntomAmount
    public var buyer: AntomBuyer?

    public init(referenceOrderId: String, orderDescription: String, orderAmount: AntomAmount, buyer: AntomBuyer? = nil) {
        self.referenceOrderId = referenceOrderId
        self.orderDescription = orderDescription
        self.orderAmount = orderAmount
        self.buyer = buyer
    }
}

public struct AntomBuyer: Codable, Hashable, Sendable {
    public var referenceBuyerId: String?
    public init(referenceBuyerId: String? = nil) { self.referenceBuyerId = referenceBuyerId }
}

/// `paymentMethod`: `BANK`, with the display mode as a JSON string in `paymentMethodMetaData`.
public struct AntomPaymentMethod: Codable, Hashable, Sendable {
    public var paymentMethodType: String
    public var paymentMethodMetaData: String?

    public init(paymentMethodType: String = "BANK", paymentMethodMetaData: String? = nil) {
        self.paymentMethodType = paymentMethodType
        self.paymentMethodMetaData = paymentMethodMetaData
    }
}

public struct AntomSettlementStrategy: Codable, Hashable, Sendable {
    public var settlementCurrency: String?
    public init(settlementCurrency: String?) { self.settlementCurrency = settlementCurrency }
}

/// `POST /ams/api/v1/payments/createPaymentSession`.
public struct AntomCreatePaymentSessionRequest: Codable, Hashable, Sendable {
    /// `CASHIER_PAYMENT`; `AGREEMENT_PAYMENT` and `IN_STORE_PAYMENT` are accepted.
    public var productCode: String
    /// New for every attempt (≤ 64 characters).
    public var paymentRequestId: String
    public var paymentAmount: AntomAmount
    public var order: AntomOrder
    public var paymentMethod: AntomPaymentMethod
    public var paymentNotifyUrl: String?
    public var paymentRedirectUrl: String
    public var settlementStrategy: AntomSettlementStrategy?
    /// ISO 8601 with offset, at most an hour ahead.
    public var paymentSessionExpiryTime: String?

    public init(
        productCode: String = "CASHIER_PAYMENT", paymentRequestId: String, paymentAmount: AntomAmount, order: AntomOrder,
        paymentMethod: AntomPaymentMethod, paymentNotifyUrl: String?, paymentRedirectUrl: String,
        settlementStrategy: AntomSettlementStrategy?, paymentSessionExpiryTime: String? = nil
    ) {
        self.productCode = productCode
        self.paymentRequestId = paymentRequestId
        self.paymentAmount = paymentAmount
        self.order = order
        self.paymentMethod = paymentMethod
        self.paymentNotifyUrl = paymentNotifyUrl
        self.paymentRedirectUrl = paymentRedirectUrl
        self.settlementStrategy = settlementStrategy
        self.paymentSessionExpiryTime = paymentSessionExpiryTime
    }
}

/// The answer to createPaymentSession.
public struct AntomCreatePaymentSessionResponse: Codable, Hashable, Sendable {
    public var result: AntomResult
    /// What the client-side component is created from (opaque to the merchant).
    public var paymentSessionData: String?
    public var paymentSessionId: String?
    public var paymentSessionExpiryTime: String?
    /// The hosted cashier page, for clients that redirect instead of embedding the component.
    public var normalUrl: String?

    public init(
        result: AntomResult, paymentSessionData: String? = nil, paymentSessionId: String? = nil, paymentSessionExpiryTime: String? = nil,
        normalUrl: String? = nil
    ) {
        self.result = result
        self.paymentSessionData = paymentSessionData
        self.paymentSessionId = paymentSessionId
        self.paymentSessionExpiryTime = paymentSessionExpiryTime
        self.normalUrl = normalUrl
    }
}

/// `POST /ams/api/v1/payments/inquiryPayment`: by `paymentRequestId` or `paymentId` (which wins).
public struct AntomInquiryPaymentRequest: Codable, Hashable, Sendable {
    public var paymentRequestId: String?
    public var paymentId: String?

    public init(paymentRequestId: String? = nil, paymentId: String? = nil) {
        self.paymentRequestId = paymentRequestId
        self.paymentId = paymentId
    }
}

/// `paymentStatus` of an inquiry (only when its result is `S`).
public enum AntomPaymentStatus: String, Codable, Hashable, Sendable, CaseIterable {
    case success = "SUCCESS", fail = "FAIL", processing = "PROCESSING", cancelled = "CANCELLED", pending = "PENDING"

    /// Whether the payment is decided.
    public var isFinal: Bool { self == .success || self == .fail || self == .cancelled }
}

public struct AntomInquiryPaymentResponse: Codable, Hashable, Sendable {
    public var result: AntomResult
    public var paymentStatus: String?
    public var paymentRequestId: String?
    public var paymentId: String?
    public var paymentAmount: AntomAmount?
    public var paymentCreateTime: String?
    public var paymentTime: String?
    /// Why a payment failed (`USER_BALANCE_NOT_ENOUGH`, `RISK_REJECT`, `ORDER_IS_CLOSED`, …).
    public var paymentResultCode: String?
    public var paymentResultMessage: String?

    public init(
        result: AntomResult, paymentStatus: String? = nil, paymentRequestId: String? = nil, paymentId: String? = nil,
        paymentAmount: AntomAmount? = nil, paymentCreateTime: String? = nil, paymentTime: String? = nil,
        paymentResultCode: String? = nil, paymentResultMessage: String? = nil
    ) {
        self.result = result
        self.paymentStatus = paymentStatus
        self.paymentRequestId = paymentRequestId
        self.paymentId = paymentId
        self.paymentAmount = paymentAmount
        self.paymentCreateTime = paymentCreateTime
        self.paymentTime = paymentTime
        self.paymentResultCode = paymentResultCode
        self.paymentResultMessage = paymentResultMessage
    }

    public var status: AntomPaymentStatus? { paymentStatus.flatMap(AntomPaymentStatus.init(rawValue:)) }
}

/// `notifyPayment`, posted by Antom to the merchant's `paymentNotifyUrl`.
public struct AntomNotifyPayment: Codable, Hashable, Sendable {
    /// `PAYMENT_RESULT` or `PAYMENT_PENDING`.
    public var notifyType: String
    public var result: AntomResult
    public var paymentRequestId: String
    public var paymentId: String?
    public var paymentAmount: AntomAmount?
    public var paymentCreateTime: String?
    public var paymentTime: String?

    public init(
        notifyType: String, result: AntomResult, paymentRequestId: String, paymentId: String?, paymentAmount: AntomAmount?,
        paymentCreateTime: String?, paymentTime: String?
    ) {
        self.notifyType = notifyType
        self.result = result
        self.paymentRequestId = paymentRequestId
        self.paymentId = paymentId
        self.paymentAmount = paymentAmount
        self.paymentCreateTime = paymentCreateTime
        self.paymentTime = paymentTime
    }
}

/// The merchant's acknowledgement of a notification (not signed).
public struct AntomAcknowledgement: Codable, Hashable, Sendable {
    public var result: AntomResult
    public init(result: AntomResult = .success) { self.result = result }
}

/// A bare `{"result": …}`: what every answer carries, read first.
public struct AntomResultOnly: Codable, Hashable, Sendable {
    public var result: AntomResult
    public init(result: AntomResult) { self.result = result }
}
