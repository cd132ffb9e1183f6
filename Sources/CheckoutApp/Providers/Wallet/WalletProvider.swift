import CheckoutModel
import PaymentFlow
import ProviderClients
import Sandbox

extension ProviderDescriptor {
    /// An Apple-Pay-style wallet sheet (the seed's Apple Pay article): summary items, saved
    /// addresses and cards, live shipping rates per address, a two-key authorization, and the
    /// merchant's processor (Adyen or Square) charging the wallet's token.
    public static let wallet = ProviderDescriptor(
        id: "wallet",
        method: PaymentMethod(
            plan: ProviderPlan(id: "wallet", settles: true, authorizesAtTerminal: true), label: "Wallet (Apple Pay style)", detail: "Adyen",
            shortName: "Wallet", customerApp: "the wallet sheet", steps: ["processing"],
            stepSentences: ["processing": "Processing: the processor charges the wallet's token…"],
            stateSentences: [.readyToAuthorize: "The wallet sheet is open: choose the address and shipping, then press p twice to pay."],
            completedSentence: "Paid with the wallet.", completedLine: "payment {payment}",
            receiptLabels: ["ship_to": "ship to", "shipping_method": "by", "processor": "through"]),
        emulates: "an Apple-Pay-style payment sheet: summary items, the networks check, saved addresses and cards, "
            + "live shipping rates per address (GET /rates), the token PassKit would issue (POST /wallet/tokens), "
            + "charged by Adyen (paymentMethod applepay) or Square (--wallet-processor square)",
        endpoints: ["GET /rates", "POST /wallet/tokens", "POST /v71/payments"],
        magicValues: WalletMagicValues.all,
        options: WalletOptions.all,
        pointsAtRealProvider: { $0[WalletOptions.ratesURL.flag] != nil },
        optionProblem: WalletOptions.problem,
        makeAdapter: { connection in
            let values = connection.options
            let settings = (try? WalletOptions.settings(values)) ?? WalletSettings()
            let notices = connection.notices
            let report: WalletEventReporter = { event in
                notices.post(ProviderNotice(
                    provider: "wallet", name: event.name.rawValue, summary: "\(event.name.rawValue) \(event.summary)", fields: event.fields.merging(["message": event.summary]) { given, _ in given },
                    verified: true, lists: event.items.isEmpty ? [:] : [WalletSummaryItem.jsonKey: event.items.map(\.fields)]))
            }
            let services = WalletHTTPServices.make(
                settings: settings, http: connection.http, sandboxURL: connection.sandboxURL,
                ratesEndpoint: WalletOptions.ratesEndpoint(values, sandboxURL: connection.sandboxURL),
                adyen: AdyenOptions.configuration(values, sandboxURL: connection.sandboxURL),
                square: SquareOptions.configuration(values, sandboxURL: connection.sandboxURL))
            return WalletAdapter(
                provider: "wallet", settings: settings, customer: connection.catalog?.sampleCustomer, desk: connection.desk, services: services, report: report)
        },
        makeSandbox: { assembly in WalletSandbox(id: "wallet", settings: assembly.settings) },
        detail: { values in ((try? WalletOptions.settings(values)) ?? WalletSettings()).processor == .square ? "Square" : "Adyen" },
        // The soak also runs the merchant's flat methods and a contact-only store pickup (no rates
        // call); `make bench` measures the address-driven sheet (its row stays `wallet`).
        variants: [
            ProviderVariant("rates", options: [:]),
            ProviderVariant("flat-methods", options: [WalletOptions.shippingMethods.flag: WalletOptions.seedFlatMethods], benchmarked: false),
            ProviderVariant(
                "store-pickup",
                options: [WalletOptions.require.flag: "email,phone", WalletOptions.shippingType.flag: "storePickup", WalletOptions.billingFields.flag: "name,postal"],
                benchmarked: false),
        ])
}

/// What `checkout providers` and the README list for the wallet.
enum WalletMagicValues {
    static let all: [MagicValue] = [
        MagicValue(field: "ZIP", value: "00000", effect: "the rates service has no service there (an empty array): \"invalid shipping postal address\" on the address row; the sheet cannot be paid until the address changes (checkout run: closed, declined, exit 1)"),
        MagicValue(field: "ZIP", value: "88888", effect: "the rates answer after 3 s: a spinner on the shipping row; the sheet stays usable and a newer address's answer wins"),
        MagicValue(field: "ZIP", value: "99999", effect: "the rates service fails (500): rates_failed; the sheet cannot be paid (checkout run: closed, declined, exit 1)"),
        MagicValue(field: "wallet card", value: "Visa 0002", effect: "the processor refuses the token (Adyen Refused, Square GENERIC_DECLINE) → declined, exit 1"),
        MagicValue(field: "wallet card", value: "Discover 1117", effect: "not in the default networks (amex, mastercard, visa): shown as not accepted; --networks adds it"),
        MagicValue(field: "wallet card", value: "Visa 5556", effect: "a debit card (the token's paymentMethod.type debit); every other card is credit"),
        MagicValue(field: "--merchant-capabilities", value: "supports3DS,supportsDebit", effect: "a credit card's token is refused by the processor (Adyen Refused \"Not supported\", Square CARD_NOT_SUPPORTED) → declined, exit 1; --wallet-cards visa:5556 pays"),
        MagicValue(field: "--merchant-capabilities", value: "supportsEMV", effect: "an EMV token (no 3DS): the processors here take 3DSecure tokens only → declined (Not supported / CARD_NOT_SUPPORTED), exit 1"),
        MagicValue(field: "--shipping-methods", value: "ID:LABEL:DETAIL:pending", effect: "a flat method not priced yet: \"Amount pending\" on the sheet, counted as 0, type pending in summary_items"),
        MagicValue(field: "passcode", value: WalletSettings.sandboxPasscode, effect: "the wallet's passcode, asked after three failed Touch ID attempts (x on the confirm prompt)"),
        MagicValue(field: "card form number", value: "4111111111111111", effect: "the merchant's card form (no accepted wallet card): approved through Square; CVC 911, ZIP 99999 or a past expiry are Square's sandbox refusals"),
        MagicValue(field: "card form number", value: WalletKeyedCard.decliningNumber, effect: "the card form's card is declined (GENERIC_DECLINE) → declined, exit 1"),
    ]
}
