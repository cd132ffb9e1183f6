import Foundation
import PaymentFlow
import ProviderClients
import Sandbox

extension ProviderDescriptor {
    /// Cash App Pay's Customer Request API directly.
    public static let cashApp = ProviderDescriptor(
        id: "cashapp",
        method: PaymentMethod(
            plan: ProviderPlan(id: "cashapp"), label: "Cash App Pay", detail: "Customer Request API", shortName: "Cash App",
            // On the method's own row, in place of its detail: PayKit's onFilePayment beside the one-time payment.
            toggle: PaymentToggle(flag: CashAppPaySettings.onFileFlag, label: "keep on file", inline: true),
            // The seed: create the request as the checkout loads; hide Cash App Pay for a while after apiError.
            createsOnLoad: true, apiErrorPause: CashAppOptions.defaultAPIErrorPause),
        emulates: "Cash App Pay's Customer Request API (network API v1): create, retrieve and update customer requests",
        endpoints: [
            "POST \(CashAppConfiguration.requestsPath)", "GET \(CashAppConfiguration.requestsPath)/{id}",
            "PATCH \(CashAppConfiguration.requestsPath)/{id}",
        ],
        magicValues: [
            MagicValue(field: "amount", value: "\(SandboxMagic.internalServerErrorAmount)", effect: "create and update answer 500 API_ERROR INTERNAL_SERVER_ERROR → apiError"),
            MagicValue(
                field: "amount", value: "7770–7775",
                effect: "declined when the customer acts (COMPLIANCE, INSUFFICIENT_FUNDS, OTHER, RISK, TOO_LARGE, TOO_SMALL) → declined"),
            MagicValue(field: "scope id", value: SandboxMagic.missingBrandScope, effect: "404 BRAND_ERROR BRAND_NOT_FOUND → integrationError"),
            MagicValue(field: "client id", value: SandboxMagic.clientIDPrefixes.map { $0 + "…" }.joined(separator: " or "), effect: "the only client ids the sandbox accepts"),
        ],
        options: CashAppOptions.all,
        pointsAtRealProvider: { $0[CashAppOptions.url.flag] != nil },
        screenMethod: CashAppOptions.screenMethod,
        optionProblem: CashAppOptions.problem,
        usageProblem: CashAppOptions.credentialsProblem,
        secrets: { [CashAppOptions.configuration($0, sandboxURL: $1).clientID] },
        makeAdapter: { connection in
            let configuration = CashAppOptions.configuration(connection.options, sandboxURL: connection.sandboxURL)
            return CashAppAdapter(
                provider: "cashapp", client: CustomerRequestClient(configuration: configuration, http: connection.http),
                brandID: configuration.brandID, settings: CashAppOptions.settings(connection.options),
                health: CashAppOptions.health(connection))
        },
        makeSandbox: { await $0.cashAppSandbox() },
        credentialProbe: CashAppOptions.credentialProbe,
        profileExample: CashAppOptions.profileExample,
        referenceLimit: CashAppOptions.referenceLimit,
        // The soak runs on-file payments too, beside the one-time payment and alone; the bench
        // measures the one-time payment (its row stays `cashapp`).
        variants: [
            ProviderVariant("one-time", options: [:]),
            ProviderVariant("on-file", options: [CashAppPaySettings.onFileFlag: "also", "account-reference-id": "soak-customer"], benchmarked: false),
            ProviderVariant("on-file-only", options: [CashAppPaySettings.onFileFlag: "only"], benchmarked: false),
        ])
}

/// Cash App Pay's options: the API host and the merchant's credentials.
public enum CashAppOptions {
    public static let sandboxClientID = "CAS-CI_TERMINALCHECKOUT"
    public static let sandboxBrandID = "BRAND_terminalcheckout"

    static let url = ProviderOption(
        flag: "cashapp-url", valueName: "url",
        help: "Cash App API host root, e.g. \(CashAppConfiguration.sandboxHost) (default: the embedded sandbox).")
    static let clientID = ProviderOption(
        flag: "client-id", environment: "CASHAPP_CLIENT_ID", valueName: "id", help: "Cash App client id.", secret: true)
    static let brandID = ProviderOption(
        flag: "brand-id", environment: "CASHAPP_BRAND_ID", valueName: "id", help: "Cash App brand id used as the scope.")
    static let onFile = ProviderOption(
        flag: CashAppPaySettings.onFileFlag, valueName: "also|only",
        help: "Cash App Pay: also ask for an on-file payment (PayKit's onFilePayment; approval adds an EXTENDED grant), or only that (no one-time payment). The screen's `keep on file` switch is `also`.")
    static let accountReferenceID = ProviderOption(
        flag: "account-reference-id", valueName: "id",
        help: "Cash App Pay: your id for the customer's account, sent with the on-file action (account_reference_id) when --on-file or the screen's switch asks for one.")
    static let redirectURL = ProviderOption(
        flag: "redirect-url", valueName: "url",
        help: "Cash App Pay: where Cash App sends the customer back, an absolute URL (CashAppPayConfiguration(redirectURL:); default \(CashAppPaySettings.defaultRedirectURL)).")
    static let createOnLoad = ProviderOption(
        flag: "create-on-load", valueName: "true|false",
        help: "Cash App Pay on the screen: create the customer request as the checkout loads, so the first p authorizes (default true); false creates it on p. `checkout run` always creates at once.")
    static let apiErrorPauseOption = ProviderOption(
        flag: "api-error-pause", valueName: "seconds",
        help: "Cash App Pay on the screen: after apiError its methods say \"temporarily unavailable\" for this long, 0 to 86400 (default \(Int(defaultAPIErrorPause)); r or a healthy sandbox brings them back sooner; 0 never hides them).")
    static let all = [url, clientID, brandID, onFile, accountReferenceID, redirectURL, createOnLoad, apiErrorPauseOption]

    /// How long Cash App Pay stays hidden after apiError, unless told otherwise.
    public static let defaultAPIErrorPause: Double = 180

    static func problem(_ values: ProviderOptionValues) -> String? {
        payKitProblem(values) ?? hostProblem(values)
    }

    /// The request's options: on-file, its account reference, the redirect URL, and the screen's timings.
    static func payKitProblem(_ values: ProviderOptionValues) -> String? {
        if let value = values[onFile.flag], CashAppPaySettings.OnFile(option: value) == nil {
            return "--on-file must be also or only, not \"\(value)\""
        }
        // Without --on-file it waits for the screen's switch.
        if let value = values[accountReferenceID.flag], value.isEmpty || value.count > referenceLimit.characters {
            return "--account-reference-id must be 1 to \(referenceLimit.characters) characters (Cash App's account_reference_id)"
        }
        if let value = values[redirectURL.flag], !isAbsoluteURL(value) {
            return "--redirect-url must be an absolute URL with a scheme, e.g. \(CashAppPaySettings.defaultRedirectURL) (at most 2048 characters), not \"\(value)\""
        }
        if let value = values[createOnLoad.flag], !["true", "false"].contains(value) {
            return "--create-on-load must be true or false, not \"\(value)\""
        }
        if let value = values[apiErrorPauseOption.flag], Int(value).map({ (0...86400).contains($0) }) != true {
            return "--api-error-pause must be a whole number of seconds from 0 to 86400, not \"\(value)\""
        }
        return nil
    }

    /// As Cash App checks `redirect_url`: a scheme and something after it, at most 2048 characters.
    static func isAbsoluteURL(_ value: String) -> Bool {
        guard value.count <= 2048, let components = URLComponents(string: value), let scheme = components.scheme, !scheme.isEmpty else { return false }
        return value.count > scheme.count + 1 && !value.contains(where: \.isWhitespace)
    }

    static func hostProblem(_ values: ProviderOptionValues) -> String? {
        guard let baseURL = values[url.flag] else { return nil }
        guard ProviderOptionValues.isWebURL(baseURL) else {
            return "--cashapp-url \(baseURL) is not an http(s) URL; give the API host root, e.g. \(CashAppConfiguration.sandboxHost)"
        }
        return nil
    }

    /// The credentials Cash App Pay directly needs with its real host. Demanded only when it is
    /// the provider checked out with: a provider reaching Cash App through its processor (Adyen's
    /// session setup or /paymentMethods give the client id and scope id) is given them there,
    /// and `--cashapp-url` only says where Cash App is.
    static func credentialsProblem(_ values: ProviderOptionValues) -> String? {
        guard values[url.flag] != nil else { return nil }
        if values[clientID.flag] == nil { return "--cashapp-url needs your client id: pass --client-id or set CASHAPP_CLIENT_ID" }
        if values[brandID.flag] == nil { return "--cashapp-url needs your brand id: pass --brand-id or set CASHAPP_BRAND_ID" }
        return nil
    }

    /// A customer request's reference_id.
    static let referenceLimit = ReferenceLimit(characters: 1024, rule: "Cash App allows 1024")

    static let profileExample = ProfileExample(order: 3, text: """
          # Cash App Pay's sandbox with your client and brand ids.
          cashapp-sandbox:
            providers: [cashapp]
            options:
              cashapp-url: https://sandbox.api.cash.app
            credentials:
              client-id: { env: CASHAPP_CLIENT_ID }
              brand-id: { env: CASHAPP_BRAND_ID }
        """)

    /// The request's settings as the options give them.
    static func settings(_ values: ProviderOptionValues) -> CashAppPaySettings {
        CashAppPaySettings(
            onFile: values[onFile.flag].flatMap(CashAppPaySettings.OnFile.init(option:)), accountReferenceID: values[accountReferenceID.flag],
            redirectURL: values[redirectURL.flag] ?? CashAppPaySettings.defaultRedirectURL)
    }

    /// The payment pane's Cash App Pay as the options set it: creating on load, the pause after apiError.
    @Sendable static func screenMethod(_ values: ProviderOptionValues, _ method: inout PaymentMethod) {
        if values[createOnLoad.flag] == "false" { method.createsOnLoad = false }
        if let seconds = values[apiErrorPauseOption.flag].flatMap(Double.init) { method.apiErrorPause = seconds > 0 ? seconds : nil }
    }

    /// Is Cash App Pay back after an apiError: the sandbox's `GET /sandbox/health`. A real host
    /// has no call that is both cheap and harmless with a merchant's credentials, so there only
    /// the pause (or r) brings it back.
    static func health(_ connection: ProviderConnection) -> (@Sendable () async -> Bool)? {
        guard connection.options[url.flag] == nil, let sandboxURL = connection.sandboxURL else { return nil }
        let http = connection.http
        return {
            do {
                let response = try await http.send(ProviderRequest(method: "GET", url: sandboxURL.withoutTrailingSlashes + "/sandbox/health"), provider: "cashapp")
                return (200..<300).contains(response.status)
            } catch {
                return false
            }
        }
    }

    /// Where Cash App Pay calls go: the real host with the user's credentials, or the sandbox.
    public static func configuration(_ values: ProviderOptionValues, sandboxURL: String?) -> CashAppConfiguration {
        CashAppConfiguration(
            baseURL: values[url.flag] ?? sandboxURL ?? "", clientID: values[clientID.flag] ?? sandboxClientID,
            brandID: values[brandID.flag] ?? sandboxBrandID)
    }
}

extension SandboxAssembly {
    /// Cash App's side of the sandbox, made once: Afterpay's and Adyen's checkouts create Cash App
    /// requests, so their sides are handed this one.
    mutating func cashAppSandbox() async -> CashAppSandbox {
        await provider { CashAppSandbox(id: "cashapp", settings: $0) }
    }
}
