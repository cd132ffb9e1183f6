import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Sandbox

extension ProviderDescriptor {
    /// Antom's cashier payment with bank methods (the seed's Alipay bank SDK): signed
    /// createPaymentSession, the bank component in one of three display modes and three
    /// locales, the bank's page, then inquiryPayment checked against signed notifications.
    public static let antom = ProviderDescriptor(
        id: "antom",
        method: PaymentMethod(
            plan: ProviderPlan(id: "antom", prepares: false, settles: false), label: "Bank payment (Antom)", detail: "",
            shortName: "Antom", customerApp: "the bank",
            stateSentences: StateSentenceKey.keyed(AntomLocale.english.stateSentences),
            completedSentence: "Paid at the bank: Antom confirmed it.", completedLine: "Antom payment {payment}",
            receiptLabels: ["payment_request_id": "request"],
            // A bank's page (or the cashier listing the banks), not an app's authorization.
            linkNoun: "the bank page",
            toggle: PaymentToggle(flag: AntomPaymentSettings.localeFlag, label: "language", values: AntomLocale.allCases.map(\.rawValue),
                                  sentences: Dictionary(uniqueKeysWithValues: AntomLocale.allCases.map { ($0.rawValue, $0.stateSentences.merging(["scan": $0.scanCaption]) { $1 }) }))),
        emulates: "Antom (Alipay+) cashier payment with bank methods: signed createPaymentSession and inquiryPayment (/ams/api, or "
            + "/ams/sandbox/api for SANDBOX_ client ids), the bank component loading the session's cashier (display modes, locales, loading events), "
            + "bank pages, signed notifyPayment to the local receiver at \(AntomNotificationReceiver.path)",
        // The sandbox's test client is a SANDBOX_ one, so these are the paths it calls (other ids: /ams/api/v1/…).
        endpoints: [
            "POST /ams/sandbox/api/v1/payments/createPaymentSession", "POST /ams/sandbox/api/v1/payments/inquiryPayment",
            "GET /sandbox/antom/cashier/{paymentSessionId}",
        ],
        magicValues: AntomMagicValues.all,
        customerBehaviours: ["approve", "decline", "abandon", "none", "approve-after"],
        options: AntomOptions.all,
        pointsAtRealProvider: { $0[AntomOptions.url.flag] != nil },
        optionProblem: AntomOptions.problem,
        secrets: { values, _ in [values[AntomOptions.privateKey.flag]].compactMap { $0 } },
        makeAdapter: { connection in
            let values = connection.options
            let configuration = AntomOptions.configuration(values, sandboxURL: connection.sandboxURL)
            let notices = connection.notices
            let report: AntomEventReporter = { event in
                let summary = "\(event.name) \(event.summary)\(event.verified ? "" : " ✗ not verified, ignored")"
                let fields = event.fields.merging(["message": event.summary, "verified": String(event.verified)]) { given, _ in given }
                notices.post(ProviderNotice(provider: "antom", name: event.name, summary: summary, fields: fields, verified: event.verified))
            }
            let receiver = AntomNotificationReceiver(publicKey: configuration.providerPublicKey, report: report)
            let sandboxURL = values[AntomOptions.url.flag] == nil ? connection.sandboxURL : nil
            return AntomAdapter(
                provider: "antom", client: AntomClient(configuration: configuration, http: connection.http), settings: AntomOptions.settings(values),
                notifications: receiver, http: connection.http,
                redirectURL: (sandboxURL ?? "https://checkout.terminal.invalid") + "/sandbox/antom/return",
                sandboxEnvironment: configuration.clientID.hasPrefix("SANDBOX_"), report: report, log: notices.sdkLogger(provider: "antom"))
        },
        makeSandbox: { assembly in await AntomSandbox(id: "antom", settings: assembly.settings) },
        detail: { values in AntomOptions.settings(values).mode.spelling },
        credentialProbe: AntomOptions.credentialProbe)
}

/// What `checkout providers` and the README list for Antom: the ready test client, the
/// sandbox's key, the bank catalogue and the amounts with a documented answer.
enum AntomMagicValues {
    static let all: [MagicValue] = [
        MagicValue(field: "client id", value: AntomSandboxCredentials.clientID, effect: "the sandbox's ready test client (used when no --antom-client-id is given); its key pair at GET /sandbox/antom/keys"),
        MagicValue(field: "sandbox public key", value: AntomSandboxCredentials.sandboxPublicKey, effect: "verifies the sandbox's answers and notifications"),
        MagicValue(field: "test client public key", value: AntomSandboxCredentials.clientPublicKey, effect: "the sandbox verifies the test client's requests with it; POST /sandbox/antom/clients {client_id, public_key} registers another"),
    ] + AntomBankCatalogue.banks.map { bank in
        MagicValue(
            field: "bank (\(bank.country))", value: bank.bankName,
            effect: "\(bank.displayName)\(bank.localName == bank.displayName ? "" : " / \(bank.localName)"): \(bank.categories.map(\.rawValue).joined(separator: ", "))")
    } + [
        MagicValue(field: "bankName", value: "Siam Commerical Bank", effect: "read as SCB: the seed's single-bank example (Antom's own spelling); any bank's name, English or local, reads as its code too"),
        MagicValue(field: "paymentMethodMetaData key", value: "paymentMethodCaregory", effect: "read as paymentMethodCategory: the seed's bank-type example spells it so"),
        MagicValue(field: "customer", value: "approve (pay) / decline (fail) / abandon", effect: "paid → approved, exit 0; USER_BALANCE_NOT_ENOUGH → declined, exit 1; left unpaid, the session expires → CANCELLED (ORDER_IS_CLOSED) → declined, exit 1"),
        MagicValue(field: "amount", value: "8001", effect: "paid, but Antom says PAYMENT_PENDING for 3 s (notification and inquiry) before SUCCESS → approved, exit 0"),
        MagicValue(field: "amount", value: "8002", effect: "notifications signed with the wrong key: shown as rejected, ignored; inquiryPayment decides → approved, exit 0"),
        MagicValue(field: "amount", value: "8003", effect: "the notification says FAIL while inquiryPayment says SUCCESS → unexpectedError NOTIFY_INQUIRY_MISMATCH, exit 2"),
        MagicValue(field: "amount", value: "8004", effect: "the bank refuses: FAIL RISK_REJECT → declined, exit 1"),
        MagicValue(field: "amount", value: "8101", effect: "unreadable paymentSessionData → SDK_CREATEPAYMENT_PARAMETER_ERROR → integrationError, exit 2"),
        MagicValue(field: "amount", value: "8102", effect: "the cashier URL answers 503 → SDK_CALL_URL_ERROR → apiError, exit 2"),
        MagicValue(field: "amount", value: "8103", effect: "the cashier answers what the component cannot read → SDK_INTERNAL_ERROR → unexpectedError, exit 2"),
        MagicValue(field: "amount", value: "8104", effect: "a production session for a sandbox component → SDK_INTEGRATION_ERROR → integrationError, exit 2"),
        MagicValue(field: "amount", value: "8201", effect: "createPaymentSession answers UNKNOWN_EXCEPTION (U), retried with the same paymentRequestId, then apiError, exit 2"),
        MagicValue(field: "amount", value: "8202", effect: "inquiryPayment answers REQUEST_TRAFFIC_EXCEED_LIMIT (U) once, retried → approved as the customer chose"),
    ]
}
