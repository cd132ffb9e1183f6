import PaymentFlow
import ProviderClients
import Sandbox

extension ProviderDescriptor {
    /// Cash App Pay's Customer Request API directly.
    public static let cashApp = ProviderDescriptor(
        id: "cashapp",
        method: PaymentMethod(plan: ProviderPlan(id: "cashapp"), label: "Cash App Pay", detail: "Customer Request API", shortName: "Cash App"),
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
        optionProblem: CashAppOptions.problem,
        usageProblem: CashAppOptions.credentialsProblem,
        secrets: { [CashAppOptions.configuration($0, sandboxURL: $1).clientID] },
        makeAdapter: { connection in
            let configuration = CashAppOptions.configuration(connection.options, sandboxURL: connection.sandboxURL)
            return CashAppAdapter(
                provider: "cashapp", client: CustomerRequestClient(configuration: configuration, http: connection.http),
                brandID: configuration.brandID)
        },
        makeSandbox: { await $0.cashAppSandbox() },
        credentialProbe: CashAppOptions.credentialProbe,
        profileExample: CashAppOptions.profileExample,
        referenceLimit: CashAppOptions.referenceLimit)
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
    static let all = [url, clientID, brandID]

    static func problem(_ values: ProviderOptionValues) -> String? {
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
