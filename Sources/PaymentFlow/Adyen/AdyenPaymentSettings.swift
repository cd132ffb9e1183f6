import ProviderWire

/// How an Adyen checkout pays: which integration flow, store the method, pay with a stored
/// one, capture now or after.
public struct AdyenPaymentSettings: Sendable, Hashable {
    public enum Capture: String, Sendable, Hashable, CaseIterable {
        /// Adyen captures on authorisation (the merchant account's default).
        case auto
        /// The checkout captures after `Authorised` (`POST /payments/{pspReference}/captures`).
        case manual
    }

    /// Adyen's two server-side integrations for its components.
    public enum Flow: String, Sendable, Hashable, CaseIterable {
        /// `/sessions` (the seed: "the default with Components v5.0.0 or later"): the server
        /// creates a session, the component sets it up, pays and reads its result on the
        /// client-key API.
        case sessions
        /// `/paymentMethods`, `/payments` and `/payments/details` from the server.
        case advanced
    }

    /// A session's `storePaymentMethodMode`: disabled (no storing, no toggle), askForConsent
    /// (the `store for next time` toggle, the component's `showsStorePaymentField`), enabled
    /// (stored without asking, its `storePaymentMethod`).
    public typealias StoreMode = AdyenStorePaymentMethodMode

    public var flow: Flow
    /// The session's mode; the advanced flow asks with its toggle (or `--store`).
    public var storeMode: StoreMode
    /// Ask the shopper to store Cash App Pay (an ON_FILE action; `storePaymentMethod`): the
    /// toggle or `--store`, the shopper's consent.
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

    /// Whether this payment stores the shopper's Cash App Pay: in a session, as its mode says
    /// (asking: when the shopper consented); in the advanced flow, when asked to.
    public var stores: Bool {
        guard storedPaymentMethodID == nil else { return false }
        switch flow {
        case .advanced: return store
        case .sessions:
            switch storeMode {
            case .disabled: return false
            case .askForConsent: return store
            case .enabled: return true
            }
        }
    }

    /// Whether the payment pane offers the `store for next time` switch: the advanced flow's
    /// `showsStorePaymentField`, or a session created with `askForConsent`.
    public var offersStoreToggle: Bool { flow == .advanced || storeMode == .askForConsent }

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

    public init(
        flow: Flow = .sessions, storeMode: StoreMode = .disabled, store: Bool = false, storedPaymentMethodID: String? = nil,
        capture: Capture = .auto, webhookWait: Duration = .seconds(60)
    ) {
        self.flow = flow
        self.storeMode = storeMode
        self.store = store
        self.storedPaymentMethodID = storedPaymentMethodID
        self.capture = capture
        self.webhookWait = webhookWait
    }
}
