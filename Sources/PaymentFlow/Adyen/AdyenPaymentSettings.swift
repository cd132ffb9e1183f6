/// How an Adyen checkout pays: store the method, pay with a stored one, capture now or after.
public struct AdyenPaymentSettings: Sendable, Hashable {
    public enum Capture: String, Sendable, Hashable, CaseIterable {
        /// Adyen captures on authorisation (the merchant account's default).
        case auto
        /// The checkout captures after `Authorised` (`POST /payments/{pspReference}/captures`).
        case manual
    }

    /// Ask the shopper to store Cash App Pay (an ON_FILE action; `storePaymentMethod`).
    public var store: Bool
    /// Pay with this stored method: no customer step.
    public var storedPaymentMethodID: String?
    public var capture: Capture
    /// How long a `Received` payment waits for its AUTHORISATION webhook.
    public var webhookWait: Duration

    /// The option flags a payment's own options may carry.
    public static let storeFlag = "store"
    public static let storedMethodFlag = "stored-payment-method"
    public static let captureFlag = "capture"

    /// These settings with a payment's options applied (the screen's stored method or toggle).
    public func applying(_ options: [String: String]) -> AdyenPaymentSettings {
        var settings = self
        if let store = options[Self.storeFlag] { settings.store = store == "true" }
        if let stored = options[Self.storedMethodFlag] {
            settings.storedPaymentMethodID = stored
            settings.store = false
        }
        if let capture = options[Self.captureFlag].flatMap(Capture.init(rawValue:)) { settings.capture = capture }
        return settings
    }

    public init(store: Bool = false, storedPaymentMethodID: String? = nil, capture: Capture = .auto, webhookWait: Duration = .seconds(60)) {
        self.store = store
        self.storedPaymentMethodID = storedPaymentMethodID
        self.capture = capture
        self.webhookWait = webhookWait
    }
}
