import PaymentFlow
import ProviderClients
import Sandbox

extension ProviderDescriptor {
    /// Cash App Pay through an Afterpay merchant account: token, signing, the customer
    /// request, then validate and capture.
    public static let afterpay = ProviderDescriptor(
        id: "afterpay",
        method: PaymentMethod(
            plan: ProviderPlan(id: "afterpay", prepares: true, settles: true), label: "Cash App Pay (Afterpay)", detail: "",
            shortName: "Afterpay", customerApp: "Cash App",
            steps: [AfterpayAdapter.tokenStep, AfterpayAdapter.signingStep, AfterpayAdapter.validatingStep, AfterpayAdapter.capturingStep],
            stepSentences: [
                AfterpayAdapter.tokenStep: "Asking Afterpay for a checkout token…",
                AfterpayAdapter.signingStep: "Afterpay is signing the payment…",
                AfterpayAdapter.validatingStep: "Approved; Afterpay is validating the payment…",
                AfterpayAdapter.capturingStep: "Validated; capturing the payment…",
            ],
            completedSentence: "Paid: Afterpay captured the payment.", completedLine: "Afterpay payment {payment} captured"),
        emulates: "Cash App Pay through Afterpay: merchant checkout, sign-payment (ES256 JWT), validate-payment and capture",
        endpoints: [
            "GET /v2/configuration", "POST /v2/checkouts", "POST /v2/payments/sign-payment", "POST \(CashAppConfiguration.requestsPath)",
            "POST /v2/payments/validate-payment", "POST /v2/payments/capture", "GET /v2/payments/token:{token}",
        ],
        magicValues: [
            MagicValue(field: "amount", value: "\(AfterpayMagic.invalidValidationCents)", effect: "validate-payment answers INVALID → settlementFailed, exit 2"),
            MagicValue(field: "amount", value: "\(AfterpayMagic.declinedCaptureCents)", effect: "the capture is declined → settlementFailed, exit 1"),
            MagicValue(
                field: "amount", value: "\(AfterpayMagic.signFailsOnceCents)",
                effect: "sign-payment fails once (500 error); the retry with a new checkout token signs → completed, one capture"),
            MagicValue(
                field: "amount", value: "\(AfterpayMagic.signFailsAlwaysCents)",
                effect: "sign-payment always fails (500 error); after one retry with a new checkout token → apiError, nothing captured"),
        ],
        options: AfterpayOptions.all,
        pointsAtRealProvider: { $0[AfterpayOptions.merchantURL.flag] != nil || $0[AfterpayOptions.signingURL.flag] != nil },
        optionProblem: AfterpayOptions.problem,
        secrets: { [AfterpayOptions.configuration($0, sandboxURL: $1).secretKey] },
        makeAdapter: { connection in
            var cashApp = CashAppOptions.configuration(connection.options, sandboxURL: connection.sandboxURL)
            cashApp.clientID = AfterpayOptions.cashAppClientID(connection.options)
            return AfterpayAdapter(
                provider: "afterpay",
                afterpay: AfterpayClient(configuration: AfterpayOptions.configuration(connection.options, sandboxURL: connection.sandboxURL), http: connection.http),
                customerRequests: CustomerRequestClient(configuration: cashApp, http: connection.http),
                environmentProblem: AfterpayOptions.environmentProblem(connection.options))
        },
        makeSandbox: { assembly in await AfterpaySandbox(id: "afterpay", cashApp: await assembly.cashAppSandbox(), settings: assembly.settings) },
        credentialProbe: AfterpayOptions.credentialProbe,
        // Cash App Pay's customer request carries the reference.
        referenceLimit: CashAppOptions.referenceLimit)
}

/// Afterpay's options: the merchant server and signing hosts, and the merchant's credentials.
public enum AfterpayOptions {
    static let merchantURL = ProviderOption(
        flag: "afterpay-url", valueName: "url",
        help: "Afterpay merchant-server host (checkout and capture), e.g. https://global-api-sandbox.afterpay.com (default: the sandbox).")
    static let signingURL = ProviderOption(
        flag: "afterpay-signing-url", valueName: "url",
        help: "Afterpay signing host (sign and validate), e.g. https://api-plus.us-sandbox.afterpay.com (default: the sandbox).")
    static let merchantID = ProviderOption(
        flag: "afterpay-merchant-id", environment: "AFTERPAY_MERCHANT_ID", valueName: "id", help: "Afterpay merchant id.")
    static let secretKey = ProviderOption(
        flag: "afterpay-secret-key", environment: "AFTERPAY_SECRET_KEY", valueName: "key", help: "Afterpay secret key.", secret: true)
    static let all = [merchantURL, signingURL, merchantID, secretKey]

    static func problem(_ values: ProviderOptionValues) -> String? {
        guard values[merchantURL.flag] != nil || values[signingURL.flag] != nil else { return nil }
        for option in [merchantURL, signingURL] {
            guard let value = values[option.flag], ProviderOptionValues.isWebURL(value) else {
                return "--\(option.flag) must be an http(s) URL when either Afterpay URL is given"
            }
        }
        if values[merchantID.flag] == nil || values[secretKey.flag] == nil {
            return "--afterpay-url needs your merchant credentials: --afterpay-merchant-id and --afterpay-secret-key (or AFTERPAY_MERCHANT_ID and AFTERPAY_SECRET_KEY)"
        }
        return environmentProblem(values)
    }

    /// A sandbox Afterpay account with a production Cash App host, or the reverse (see
    /// AfterpayEnvironment for how each is recognised); nil when they match or say nothing.
    static func environmentProblem(_ values: ProviderOptionValues) -> String? {
        AfterpayEnvironment.mismatch(
            afterpay: [merchantURL, signingURL].map { (flag: $0.flag, url: values[$0.flag]) },
            cashApp: (flag: CashAppOptions.url.flag, url: values[CashAppOptions.url.flag]))
    }

    /// The Cash App client id Afterpay's checkout uses: `--client-id` when given, else the one the
    /// Afterpay SDK hands PayKit for the account's environment (CAS-CI_AFTERPAY in the sandbox,
    /// CA-CI_AFTERPAY in production; a host that is neither Afterpay's nor Cash App's is the
    /// sandbox).
    static func cashAppClientID(_ values: ProviderOptionValues) -> String {
        if let given = values[CashAppOptions.clientID.flag] { return given }
        let afterpay = [merchantURL, signingURL].lazy.compactMap { values[$0.flag].flatMap(AfterpayEnvironment.ofAfterpay) }.first
        let cashApp = values[CashAppOptions.url.flag].flatMap(AfterpayEnvironment.ofCashApp)
        return (afterpay ?? cashApp ?? .sandbox).cashAppClientID
    }

    /// Where Afterpay calls go, given the sandbox's URL when one serves Afterpay.
    public static func configuration(_ values: ProviderOptionValues, sandboxURL: String?) -> AfterpayConfiguration {
        let merchant = AfterpayMerchant.sandbox
        return AfterpayConfiguration(
            merchantBaseURL: values[merchantURL.flag] ?? sandboxURL ?? AfterpayConfiguration.sandboxMerchantHost,
            signingBaseURL: values[signingURL.flag] ?? sandboxURL ?? AfterpayConfiguration.sandboxSigningHost,
            merchantID: values[merchantID.flag] ?? merchant.merchantID, secretKey: values[secretKey.flag] ?? merchant.secretKey)
    }
}
