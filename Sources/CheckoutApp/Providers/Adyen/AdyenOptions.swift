import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire

/// Adyen's options: where its API is, the credentials, the shopper, and how to pay.
public enum AdyenOptions {
    /// What the sandbox accepts (any key starting `AQE`, any merchant account but `UnknownMerchant`).
    public static let sandboxAPIKey = "AQE_terminalcheckout_sandbox_key"
    public static let sandboxMerchantAccount = "TerminalCheckoutECOM"

    static let url = ProviderOption(
        flag: "adyen-url", valueName: "url",
        help: "Adyen Checkout API base with its version, e.g. \(AdyenConfiguration.testBaseURL) (default: the sandbox).")
    static let apiKeyOption = ProviderOption(
        flag: "adyen-api-key", environment: "ADYEN_API_KEY", valueName: "key", help: "Adyen API key (X-API-Key).", secret: true)
    static let merchantAccount = ProviderOption(
        flag: "adyen-merchant-account", environment: "ADYEN_MERCHANT_ACCOUNT", valueName: "account", help: "Adyen merchant account.")
    static let shopperReference = ProviderOption(
        flag: "shopper-reference", valueName: "id",
        help: "Adyen shopper whose Cash App Pay is stored and listed (default: one per machine, shopper-<host name>).")
    static let store = ProviderOption.switchOption(
        flag: "store", help: "Adyen: store the shopper's Cash App Pay with this payment (an on-file grant).")
    static let storedMethod = ProviderOption(
        flag: "stored-payment-method", valueName: "id", help: "Adyen: pay with this stored Cash App Pay; no customer step.")
    static let capture = ProviderOption(
        flag: "capture", valueName: "auto|manual", help: "Adyen: manual captures after Authorised (POST /payments/{pspReference}/captures); default auto.")
    static let hmacKey = ProviderOption(
        flag: "adyen-hmac-key", environment: "ADYEN_HMAC_KEY", valueName: "hex",
        help: "Adyen webhook HMAC key (hex) to verify notifications (default: the sandbox's test key).", secret: true)
    static let flow = ProviderOption(
        flag: "adyen-flow", valueName: "sessions|advanced",
        help: "Adyen: the server-side flow. sessions (the default, as with Components v5+): POST /sessions, then the component sets the session up, pays and sends details on the client-key API, and GET /sessions/{id} reads the result; advanced: /paymentMethods, /payments and /payments/details.",
        scenarioKey: "flow")
    static let storeMode = ProviderOption(
        flag: "store-payment-method-mode", valueName: "disabled|askForConsent|enabled",
        help: "Adyen sessions: the session's storePaymentMethodMode. disabled (default): nothing stored, no toggle; askForConsent: the store for next time toggle (--store consents); enabled: stored without asking.")
    static let clientKey = ProviderOption(
        flag: "adyen-client-key", environment: "ADYEN_CLIENT_KEY", valueName: "key",
        help: "Adyen client key (test_… or live_…) the sessions flow's component calls the client-key API with; the API key never goes there (default: the sandbox's).")
    static let componentURL = ProviderOption(
        flag: "adyen-component-url", valueName: "url",
        help: "Adyen's client-key API root for the sessions flow, e.g. \(AdyenConfiguration.testComponentBaseURL) (default: the one that goes with --adyen-url).")
    static let all = [url, apiKeyOption, merchantAccount, shopperReference, flow, storeMode, store, storedMethod, capture, hmacKey, clientKey, componentURL]

    /// The sandbox's client key (it accepts any well-formed `test_` key).
    public static let sandboxClientKey = AdyenClientKey.sandbox

    static let profileExample = ProfileExample(order: 2, text: """
          # Adyen's test platform: the API key from a password manager, the HMAC key from a file.
          adyen-test:
            description: Adyen test, Cash App Pay component
            providers: [adyen]
            options:
              adyen-url: https://checkout-test.adyen.com/v71
              adyen-merchant-account: YourMerchantAccountECOM
              # The sessions flow's component calls with the client key (not a secret).
              adyen-client-key: test_YourClientKey
            credentials:
              adyen-api-key: { command: "pass show adyen/test-api-key" }
              adyen-hmac-key: { file: ~/.config/checkout/adyen-hmac.key }
        """)

    /// One shopper per machine, so stored methods persist between runs on it. Worked out only
    /// when a run needs it: the host name may take a resolver round trip, and the help (and so
    /// the man page) must read the same on every machine.
    public static let defaultShopperReference: String = {
        let host = ProcessInfo.processInfo.hostName.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
        return "shopper-" + String(String.UnicodeScalarView(host.prefix(40))).lowercased()
    }()

    static func problem(_ values: ProviderOptionValues) -> String? {
        if let value = values[url.flag], !ProviderOptionValues.isWebURL(value) {
            return "--adyen-url must be an http(s) URL, e.g. \(AdyenConfiguration.testBaseURL)"
        }
        if values[url.flag] != nil, values[apiKeyOption.flag] == nil || values[merchantAccount.flag] == nil {
            return "--adyen-url needs your credentials: --adyen-api-key and --adyen-merchant-account (or ADYEN_API_KEY and ADYEN_MERCHANT_ACCOUNT)"
        }
        if let value = values[flow.flag], AdyenPaymentSettings.Flow(rawValue: value) == nil {
            return "--adyen-flow must be sessions or advanced, not \"\(value.prefix(40))\""
        }
        if let value = values[storeMode.flag], AdyenPaymentSettings.StoreMode(rawValue: value) == nil {
            return "--store-payment-method-mode must be disabled, askForConsent or enabled, not \"\(value.prefix(40))\""
        }
        if values[storeMode.flag] != nil, values[flow.flag] == AdyenPaymentSettings.Flow.advanced.rawValue {
            return "--store-payment-method-mode is a session's: drop it, or use --adyen-flow sessions (the advanced flow asks with --store or its toggle)"
        }
        if values[store.flag] != nil, values[storeMode.flag] == AdyenPaymentSettings.StoreMode.disabled.rawValue {
            return "--store and --store-payment-method-mode disabled do not go together: a disabled session stores nothing"
        }
        if let value = values[clientKey.flag], !AdyenClientKey.isWellFormed(value) {
            return "--adyen-client-key must look like test_… or live_… (letters and digits after the underscore), as Adyen's components require"
        }
        if let value = values[componentURL.flag], !ProviderOptionValues.isWebURL(value) {
            return "--adyen-component-url must be an http(s) URL, e.g. \(AdyenConfiguration.testComponentBaseURL)"
        }
        if values[url.flag] != nil, flowSetting(values) == .sessions, values[clientKey.flag] == nil {
            return "--adyen-url with the sessions flow needs your client key: --adyen-client-key (or ADYEN_CLIENT_KEY), or --adyen-flow advanced"
        }
        if let value = values[capture.flag], AdyenPaymentSettings.Capture(rawValue: value) == nil {
            return "--capture must be auto or manual, not \"\(value)\""
        }
        if let value = values[hmacKey.flag], AdyenHMAC.keyBytes(hex: value) == nil {
            return "--adyen-hmac-key must be hexadecimal digits (an even number of them)"
        }
        // Adyen's /payments takes a shopperReference of 3 to 256 characters (CheckoutService-v71).
        if let value = values[shopperReference.flag], !(3...256).contains(value.count) {
            return "--shopper-reference must be 3 to 256 characters (Adyen's shopperReference)"
        }
        if let value = values[storedMethod.flag], value.isEmpty || value.count > 64 {
            return "--stored-payment-method must be 1 to 64 characters (Adyen's storedPaymentMethodId)"
        }
        if values[storedMethod.flag] != nil, values[store.flag] != nil {
            return "--store and --stored-payment-method do not go together: a stored method is already stored"
        }
        return nil
    }

    static func apiKey(_ values: ProviderOptionValues) -> String {
        values[apiKeyOption.flag] ?? sandboxAPIKey
    }

    static func hmacKeyBytes(_ values: ProviderOptionValues) -> [UInt8] {
        values[hmacKey.flag].flatMap(AdyenHMAC.keyBytes(hex:)) ?? AdyenHMAC.keyBytes(hex: AdyenHMAC.sandboxKey) ?? []
    }

    /// Where the Cash App leg goes: --cashapp-url when given; with the real Adyen, Cash App's own
    /// host for Adyen's environment (test: its sandbox), as Adyen's component does; else the sandbox.
    static func cashAppHost(_ values: ProviderOptionValues, sandboxed: String) -> String {
        if let given = values[CashAppOptions.url.flag] { return given }
        guard let adyen = values[url.flag] else { return sandboxed }
        return adyen.contains("-live") ? CashAppConfiguration.productionHost : CashAppConfiguration.sandboxHost
    }

    public static func configuration(_ values: ProviderOptionValues, sandboxURL: String?) -> AdyenConfiguration {
        let base = values[url.flag] ?? sandboxURL.map { $0 + AdyenConfiguration.apiVersionPath } ?? AdyenConfiguration.testBaseURL
        return AdyenConfiguration(
            baseURL: base, apiKey: apiKey(values), merchantAccount: values[merchantAccount.flag] ?? sandboxMerchantAccount,
            shopperReference: values[shopperReference.flag] ?? defaultShopperReference,
            clientKey: values[clientKey.flag] ?? sandboxClientKey, componentBaseURL: values[componentURL.flag])
    }

    static func flowSetting(_ values: ProviderOptionValues) -> AdyenPaymentSettings.Flow {
        values[flow.flag].flatMap(AdyenPaymentSettings.Flow.init(rawValue:)) ?? .sessions
    }

    /// The session's mode: as given; `--store` alone means stored without asking.
    static func storeModeSetting(_ values: ProviderOptionValues) -> AdyenPaymentSettings.StoreMode {
        if let mode = values[storeMode.flag].flatMap(AdyenPaymentSettings.StoreMode.init(rawValue:)) { return mode }
        return values[store.flag] != nil ? .enabled : .disabled
    }

    static func settings(_ values: ProviderOptionValues) -> AdyenPaymentSettings {
        AdyenPaymentSettings(
            flow: flowSetting(values), storeMode: storeModeSetting(values),
            store: values[store.flag] != nil, storedPaymentMethodID: values[storedMethod.flag],
            capture: values[capture.flag].flatMap(AdyenPaymentSettings.Capture.init(rawValue:)) ?? .auto)
    }

    /// The payment pane's `store for next time`: in the advanced flow, and in a session that asks.
    static func showsToggle(_ values: ProviderOptionValues) -> Bool {
        settings(values).offersStoreToggle
    }
}
