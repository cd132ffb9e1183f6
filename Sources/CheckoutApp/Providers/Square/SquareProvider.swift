import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Sandbox

extension ProviderDescriptor {
    /// Square's Mobile Payments SDK "Take a Payment": tip screen, card reader, CreatePayment,
    /// delayed capture, lost-answer recovery and offline payments.
    public static let square = ProviderDescriptor(
        id: "square",
        method: PaymentMethod(
            plan: ProviderPlan(id: "square", prepares: true, settles: true), label: "Card (Square)", detail: "",
            shortName: "Square", customerApp: "the card reader",
            steps: SquareAdapter.steps,
            stepSentences: [
                SquareAdapter.tipStep: "Tip screen: the customer chooses a tip…",
                SquareAdapter.readerStep: "Reader ready: tap, insert or swipe a card…",
                SquareAdapter.authorizedStep: "Authorized: complete (c) or cancel (x) before the delay passes…",
                SquareAdapter.completingStep: "Completing the payment…",
                SquareAdapter.cancelingStep: "Canceling the authorization…",
            ],
            stateSentences: [
                .creating: "Card read; Square is taking the payment…",
                .declined: "Square declined the card.",
                .approved: "Approved by Square.",
            ],
            completedSentence: "Paid by card.", completedLine: "Square payment {payment}",
            receiptLabels: ["receipt_number": "receipt #", "entry_method": "entry", "status": "status"],
            // The tip screen is answered at once; approve-after's delay is the card's, at the reader.
            promptsAnsweredAtOnce: [SquareAdapter.tipStep]),
        emulates: "Square Payments API (Mobile Payments SDK Take a Payment): card reader, tips, delayed capture, offline payments, lost-answer recovery",
        endpoints: [
            "POST /v2/payments", "GET /v2/payments/{payment_id}", "GET /v2/payments", "POST /v2/payments/{payment_id}/complete",
            "POST /v2/payments/{payment_id}/cancel", "POST /v2/payments/cancel", "PUT /v2/payments/{payment_id}",
        ],
        magicValues: SquareTestCard.all.map { card in
            MagicValue(
                field: "source_id (--card \(card.name))", value: card.nonce,
                effect: card.errorCode.map { code in
                    code == "CARD_TOKEN_USED" ? "400 CARD_TOKEN_USED → integrationError, exit 2" : "PAYMENT_METHOD_ERROR \(code), payment FAILED → declined, exit 1"
                } ?? "COMPLETED (APPROVED with --delay) → completed, exit 0")
        } + [
            MagicValue(field: "source_id (reader)", value: "cnon:reader-<contactless|emv|swiped>-<outcome>", effect: "a tap, insert or swipe of the same card: entry_method CONTACTLESS, EMV or SWIPED, with the chip's application name and AID"),
            MagicValue(
                field: "source_id (--card gift)", value: SquareTestCard.giftCard.nonce,
                effect: "the sandbox's gift card (ours; Square documents only the number 7783 3200 0000 0000): holds $10.00; with --accept-partial-authorization a larger sale is APPROVED for $10.00 and the rest goes on the next card (--card gift,ok); without it INSUFFICIENT_FUNDS → declined, exit 1"),
            MagicValue(
                field: "--card A,B", value: "declined,ok",
                effect: "cards presented in turn: after a decline the next keeps the reference_id with a new idempotency key (…-a2) → completed, exit 0"),
            MagicValue(field: "access token", value: "EAAA…", effect: "tokens starting EAAA are accepted; any other → 401 UNAUTHORIZED → integrationError, exit 2"),
        ] + SquareOptions.sdkMagicValues,
        options: SquareOptions.all,
        pointsAtRealProvider: { $0[SquareOptions.url.flag] != nil },
        optionProblem: SquareOptions.problem,
        secrets: { values, _ in [values[SquareOptions.accessToken.flag] ?? SquareOptions.sandboxAccessToken] },
        makeAdapter: { connection in
            let values = connection.options
            let settings = SquareOptions.settings(values)
            let client = SquareClient(configuration: SquareOptions.configuration(values, sandboxURL: connection.sandboxURL), http: connection.http)
            let notices = connection.notices
            return SquareAdapter(
                provider: "square", square: client, settings: settings, desk: connection.desk,
                offlineStore: settings.processingMode == .online ? nil : SquareOfflineDatabase(),
                notify: { name, summary in notices.post(ProviderNotice(provider: "square", name: name, summary: summary, verified: true)) },
                post: { name, summary, fields in notices.post(ProviderNotice(provider: "square", name: name, summary: summary, fields: fields, verified: true)) })
        },
        makeSandbox: { assembly in await SquareSandbox(id: "square", settings: assembly.settings) },
        credentialProbe: SquareOptions.credentialProbe,
        commands: [ProviderCommand(name: "offline", type: OfflineCommand.self)],
        profileExample: SquareOptions.profileExample,
        // The soak also runs split tenders (the gift card's partial authorization and a card for
        // the rest), the merchant-drawn prompt with the reader changing, and a delayed payment
        // cancelled through the payment handle; `make bench` measures the one card payment (its
        // row stays `square`).
        variants: [
            ProviderVariant("card", options: [:]),
            ProviderVariant(
                "split-tender", options: [SquareOptions.acceptPartialAuthorization.flag: "true", SquareOptions.then.flag: "complete"], benchmarked: false),
        ] + SquareOptions.sdkVariants)
}
