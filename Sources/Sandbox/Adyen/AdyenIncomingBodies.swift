import ProviderWire

/// Request bodies as the sandbox reads them: every field optional, so a missing one is answered
/// with Adyen's own validation error (e.g. 422 `14_030` "Return URL is missing.") rather than
/// a decoding failure. Unknown fields are ignored, as Adyen ignores them.
enum AdyenIncoming {
    struct PaymentMethods: Decodable {
        var merchantAccount: String?
        var amount: AdyenAmount?
        var countryCode: String?
        var channel: String?
        var shopperReference: String?
    }

    /// `CashAppDetails`, plus the (deprecated) recurringDetailReference as a stored method id,
    /// and `ApplePayDetails`' token (`type` tells which method it is).
    struct CashApp: Decodable {
        var type: String?
        var applePayToken: String?
        var subtype: String?
        var grantId: String?
        var onFileGrantId: String?
        var customerId: String?
        var cashtag: String?
        var storedPaymentMethodId: String?
        var recurringDetailReference: String?
    }

    struct Payment: Decodable {
        var amount: AdyenAmount?
        var merchantAccount: String?
        var paymentMethod: CashApp?
        var reference: String?
        var returnUrl: String?
        var shopperReference: String?
        var storePaymentMethod: Bool?
        var recurringProcessingModel: String?
        var shopperInteraction: String?
        var channel: String?
    }

    struct Details: Decodable {
        var details: [String: String]?
        var paymentData: String?
    }

    struct Modification: Decodable {
        var merchantAccount: String?
        var amount: AdyenAmount?
        var reference: String?
    }

    /// `POST /storedPaymentMethods` (`StoredPaymentMethodRequest`): only whether each required
    /// field is there (the payment method's own fields are not read).
    struct StoredMethod: Decodable {
        static let processingModels: Set<String> = ["CardOnFile", "Subscription", "UnscheduledCardOnFile"]
        struct Present: Decodable {}
        var merchantAccount: String?
        var shopperReference: String?
        var paymentMethod: Present?
        var recurringProcessingModel: String?
    }

    /// `POST /sessions` (`CreateCheckoutSessionRequest`: the fields the sandbox reads).
    struct Session: Decodable {
        static let storeModes = AdyenStorePaymentMethodMode.allCases.map(\.rawValue)
        static let processingModels = ["CardOnFile", "Subscription", "UnscheduledCardOnFile"]
        static let shopperInteractions = ["Ecommerce", "ContAuth", "Moto", "POS"]
        static let channels = ["iOS", "Android", "Web"]
        static let modes = ["embedded", "hosted"]
        var amount: AdyenAmount?
        var merchantAccount: String?
        var reference: String?
        var returnUrl: String?
        var countryCode: String?
        var shopperReference: String?
        var storePaymentMethodMode: String?
        var recurringProcessingModel: String?
        var shopperInteraction: String?
        var channel: String?
        var shopperLocale: String?
        var expiresAt: String?
        var mode: String?
    }

    /// The component's calls on a session (`…/v1/sessions/{id}/setup|payments|paymentDetails`):
    /// one body for the three, each reading its own fields.
    struct SessionCall: Decodable {
        var sessionData: String?
        var paymentMethod: CashApp?
        var storePaymentMethod: Bool?
        var details: [String: String]?
        var paymentData: String?
    }
}
