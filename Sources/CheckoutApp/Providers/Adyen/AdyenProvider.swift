import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Sandbox

extension ProviderDescriptor {
    /// Cash App Pay through Adyen's component: by default the sessions flow (a session, the
    /// component's setup, payments and details on the client-key API, the session's result), or
    /// with `--adyen-flow advanced` payment methods, `/payments` and `/payments/details`; the
    /// Cash App customer request between; stored Cash App Pay pays without a customer step.
    public static let adyen = ProviderDescriptor(
        id: "adyen",
        method: PaymentMethod(
            plan: ProviderPlan(id: "adyen", prepares: true, settles: true), label: "Cash App Pay (Adyen)", detail: "",
            shortName: "Adyen", customerApp: "Cash App",
            steps: [
                AdyenAdapter.sessionStep, AdyenAdapter.methodsStep, AdyenAdapter.sessionPaymentStep, AdyenAdapter.authorisingStep,
                AdyenAdapter.detailsStep, AdyenAdapter.sessionResultStep, AdyenAdapter.awaitingWebhookStep, AdyenAdapter.capturingStep,
            ],
            stepSentences: [
                AdyenAdapter.sessionStep: "Creating an Adyen session and setting it up…",
                AdyenAdapter.sessionPaymentStep: "Approved; paying through the Adyen session…",
                AdyenAdapter.detailsStep: "Adyen asked for an action; sending the shopper's return as details…",
                AdyenAdapter.sessionResultStep: "Reading the Adyen session's result…",
                AdyenAdapter.methodsStep: "Asking Adyen for the payment methods…",
                AdyenAdapter.authorisingStep: "Approved; Adyen is authorising the payment…",
                AdyenAdapter.awaitingWebhookStep: "Order received; waiting for Adyen's AUTHORISATION webhook…",
                AdyenAdapter.capturingStep: "Authorised; capturing the payment…",
            ],
            completedSentence: "Paid: Adyen authorised the payment.", completedLine: "Adyen payment {payment} authorised",
            receiptLabels: ["stored_payment_method_id": "stored as", "capture_psp_reference": "capture", "session_id": "session"],
            // Like the component's showsStorePaymentField; `--store` sets it and hides it.
            toggle: PaymentToggle(flag: AdyenPaymentSettings.storeFlag, label: "store for next time"),
            // A token webhook (recurring.token.created, .disabled, …) changes the saved methods.
            savedMethodsRefreshNotices: ["recurring.token."]),
        emulates: "Adyen Checkout API v71 with the Cash App Pay component: sessions and the component's client-key calls, payment methods, payments, details, modifications, stored Cash App Pay, webhooks",
        endpoints: [
            "POST /v71/sessions", "POST /checkoutshopper/v1/sessions/{id}/setup", "POST /checkoutshopper/v1/sessions/{id}/payments",
            "POST /checkoutshopper/v1/sessions/{id}/paymentDetails", "GET /v71/sessions/{id}", "POST /v71/paymentMethods",
            "POST \(CashAppConfiguration.requestsPath)", "POST /v71/payments", "POST /v71/payments/details",
            "POST /v71/payments/{pspReference}/captures", "POST /v71/payments/{pspReference}/cancels",
            "GET /v71/storedPaymentMethods", "DELETE /v71/storedPaymentMethods/{id}",
        ],
        magicValues: [
            MagicValue(field: "amount", value: "7001", effect: "resultCode Refused → settlementFailed (declined), exit 1"),
            MagicValue(field: "amount", value: "7002", effect: "resultCode Error → settlementFailed, exit 2"),
            MagicValue(field: "amount", value: "7003", effect: "resultCode Cancelled → settlementFailed (declined), exit 1"),
            MagicValue(field: "amount", value: "7004", effect: "resultCode Received, then an AUTHORISATION webhook (success) about 2 s later → completed, exit 0"),
            MagicValue(field: "amount", value: "7005", effect: "resultCode Received, then AUTHORISATION success=false → declined, exit 1"),
            MagicValue(
                field: "amount", value: "7006",
                effect: "resultCode RedirectShopper with a redirect action; the shopper's return goes to /payments/details (the session's paymentDetails) → Authorised, exit 0"),
            MagicValue(
                field: "client key", value: AdyenClientKey.sandbox,
                effect: "the sessions flow's client-key calls (/checkoutshopper/v1/sessions/…) take any test_ key; an API key there → 401 000"),
            MagicValue(field: "API key", value: "AQE…", effect: "keys starting AQE are accepted; any other → 401 000 → integrationError, exit 2"),
            MagicValue(field: "merchant account", value: "UnknownMerchant", effect: "403 901 Invalid Merchant Account → integrationError, exit 2"),
            MagicValue(field: "webhook HMAC key", value: AdyenHMAC.sandboxKey, effect: "the sandbox signs notifications with it (checkout sandbox --adyen-hmac-key)"),
        ],
        options: AdyenOptions.all,
        pointsAtRealProvider: { $0[AdyenOptions.url.flag] != nil },
        optionProblem: AdyenOptions.problem,
        showsToggle: AdyenOptions.showsToggle,
        secrets: { values, _ in [AdyenOptions.apiKey(values), values[AdyenOptions.hmacKey.flag]].compactMap { $0 } },
        makeAdapter: { connection in
            let values = connection.options
            let realAdyen = values[AdyenOptions.url.flag] != nil
            let configuration = AdyenOptions.configuration(values, sandboxURL: connection.sandboxURL)
            let cashApp = CashAppOptions.configuration(values, sandboxURL: connection.sandboxURL)
            // With a sandbox, a local receiver registered there decides `Received` payments.
            let webhooks = realAdyen ? nil : connection.sandboxURL.map { sandboxURL in
                AdyenWebhookReceiver(hmacKey: AdyenOptions.hmacKeyBytes(values), sandboxURL: sandboxURL, http: connection.http) {
                    connection.notices.post($0.notice)
                }
            }
            return AdyenAdapter(
                provider: "adyen", adyen: AdyenClient(configuration: configuration, http: connection.http),
                cashAppBaseURL: AdyenOptions.cashAppHost(values, sandboxed: cashApp.baseURL),
                settings: AdyenOptions.settings(values), webhooks: webhooks)
        },
        makeSandbox: { assembly in await AdyenSandbox(id: "adyen", cashApp: await assembly.cashAppSandbox(), settings: assembly.settings) },
        configureSandbox: { values, settings in
            if let key = values[AdyenOptions.hmacKey.flag] { settings.adyen.hmacKey = key }
        },
        credentialProbe: AdyenOptions.credentialProbe,
        commands: [ProviderCommand(name: "listen", type: ListenCommand.self)],
        profileExample: AdyenOptions.profileExample,
        // Its Cash App Pay component makes Cash App's customer request.
        referenceLimit: CashAppOptions.referenceLimit,
        // Both flows are measured (`make bench`) and soaked.
        variants: AdyenPaymentSettings.Flow.allCases.map { ProviderVariant($0.rawValue, options: [AdyenOptions.flow.flag: $0.rawValue]) })
}
