/// Adyen's webhooks: the standard notification (payments and modifications) and the
/// tokenization notification (stored methods created or disabled). `live` and `success` are
/// strings on the wire.

public struct AdyenNotification: Codable, Hashable, Sendable {
    public struct Container: Codable, Hashable, Sendable {
        public var NotificationRequestItem: AdyenNotificationItem
        public init(_ item: AdyenNotificationItem) { NotificationRequestItem = item }
    }
    public var live: String
    public var notificationItems: [Container]
    public init(live: String = "false", items: [AdyenNotificationItem]) {
        self.live = live; notificationItems = items.map(Container.init)
    }
    public var items: [AdyenNotificationItem] { notificationItems.map(\.NotificationRequestItem) }
}

public struct AdyenNotificationItem: Codable, Hashable, Sendable {
    public var additionalData: [String: String]?
    public var amount: AdyenAmount
    public var eventCode: String
    public var eventDate: String
    public var merchantAccountCode: String
    public var merchantReference: String
    public var originalReference: String?
    public var paymentMethod: String?
    public var pspReference: String
    public var reason: String?
    public var success: String
    public init(
        additionalData: [String: String]? = nil, amount: AdyenAmount, eventCode: String, eventDate: String, merchantAccountCode: String,
        merchantReference: String, originalReference: String? = nil, paymentMethod: String? = "cashapp", pspReference: String,
        reason: String? = nil, success: Bool
    ) {
        self.additionalData = additionalData; self.amount = amount; self.eventCode = eventCode; self.eventDate = eventDate
        self.merchantAccountCode = merchantAccountCode; self.merchantReference = merchantReference
        self.originalReference = originalReference; self.paymentMethod = paymentMethod; self.pspReference = pspReference
        self.reason = reason; self.success = success ? "true" : "false"
    }

    public var succeeded: Bool { success == "true" }
    public var hmacSignature: String? { additionalData?["hmacSignature"] }

    /// The text Adyen signs: the eight fields joined by ':', a missing one empty.
    public var signedPayload: String {
        [pspReference, originalReference ?? "", merchantAccountCode, merchantReference, String(amount.value), amount.currency, eventCode, success]
            .joined(separator: ":")
    }
}

/// `recurring.token.created`, `recurring.token.disabled`, …
public struct AdyenTokenNotification: Codable, Hashable, Sendable {
    public struct Data: Codable, Hashable, Sendable {
        public var merchantAccount: String
        public var shopperReference: String
        public var storedPaymentMethodId: String
        public var type: String
        public var operation: String?
        public init(merchantAccount: String, shopperReference: String, storedPaymentMethodId: String, type: String = "cashapp", operation: String?) {
            self.merchantAccount = merchantAccount; self.shopperReference = shopperReference
            self.storedPaymentMethodId = storedPaymentMethodId; self.type = type; self.operation = operation
        }
    }
    public static let created = "recurring.token.created"
    public static let disabled = "recurring.token.disabled"
    public var createdAt: String
    public var environment: String
    public var eventId: String
    public var type: String
    public var data: Data
    public init(createdAt: String, environment: String = "test", eventId: String, type: String, data: Data) {
        self.createdAt = createdAt; self.environment = environment; self.eventId = eventId; self.type = type; self.data = data
    }
}
