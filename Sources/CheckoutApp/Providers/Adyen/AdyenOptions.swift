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
    static let all = [url, apiKeyOption, merchantAccount, shopperReference, store, storedMethod, capture, hmacKey]

    static let profileExample = ProfileExample(order: 2, text: """
          # Adyen's test platform: the API key from a password manager, the HMAC key from a file.
          adyen-test:
            description: Adyen test, Cash App Pay component
            providers: [adyen]
            options:
              adyen-url: https://checkout-test.adyen.com/v71
              adyen-merchant-account: YourMerchantAccountECOM
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
            shopperReference: values[shopperReference.flag] ?? defaultShopperReference)
    }

    static func settings(_ values: ProviderOptionValues) -> AdyenPaymentSettings {
        AdyenPaymentSettings(
            store: values[store.flag] != nil, storedPaymentMethodID: values[storedMethod.flag],
            capture: values[capture.flag].flatMap(AdyenPaymentSettings.Capture.init(rawValue:)) ?? .auto)
    }
}
