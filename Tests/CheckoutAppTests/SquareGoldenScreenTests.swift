import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire
import TerminalUI
import Testing

/// Square's screens as text at 100×30 and 80×24: the tip screen, the card reader, a delayed
/// capture counting down, the printed receipt, and a declined card; issue 28's: another card
/// after a decline, the reader for a split tender's remainder, the tip added after
/// authorization and its receipt, and the receipt of a sale paid in two payments.
@Suite struct SquareGoldenScreenTests {
    private func check(_ name: String, styles: Bool = false, _ make: (Int, Int) throws -> AppState) throws {
        for (width, height) in GoldenScreenTests.sizes {
            let screen = CheckoutView.render(try make(width, height))
            try Golden.compare(screen.text, file: "\(name)-\(width)x\(height).txt")
            if styles { try Golden.compare(screen.styleMap, file: "\(name)-\(width)x\(height).style") }
        }
    }

    private var chooseSquare: [AppMessage] {
        let row = ProviderRegistry.builtIn.ids.firstIndex(of: "square") ?? 0
        return ([.tab, .tab] + [Key](repeating: .down, count: row) + [.enter]).map { AppMessage.key($0) }
    }

    private func paying(_ width: Int, _ height: Int) throws -> AppState {
        var state = try Screens.state(width: width, height: height)
        _ = Screens.apply(chooseSquare + [.key(.character("p"))], to: &state)
        return state
    }

    private static let amount = Money(minorUnits: 4505, currency: .usd)
    static let reader = SquareAdapter.readerPrompt(total: amount, keyedEntryAllowed: true)

    @Test func theTipScreen() throws {
        try check("square-tip") { width, height in
            var state = try paying(width, height)
            let tip = SquareAdapter.tipPrompt(amount: Self.amount)
            _ = Screens.apply([.phaseChanged(.step("tip")), .promptChanged(tip), .key(.down), .key(.down)], to: &state)
            return state
        }
    }

    @Test func theReaderPrompt() throws {
        try check("square-reader", styles: true) { width, height in
            var state = try paying(width, height)
            _ = Screens.apply([.phaseChanged(.step("reader")), .promptChanged(Self.reader), .key(.down)], to: &state)
            return state
        }
    }

    private func approvedPayment(_ state: inout AppState, id: String, minorUnits: Int = 5180) {
        let attempt = PaymentAttempt(
            provider: "square", id: id, status: .approved, amount: Money(minorUnits: minorUnits, currency: .usd), reference: "tc-0a1b2c3d", grants: [id])
        _ = Screens.apply([
            .promptChanged(nil), .stateChanged(.creatingRequest(PaymentAttempt(provider: "square", amount: attempt.amount))),
            .exchange(Screens.exchange(1, "POST", "/v2/payments", status: 200, milliseconds: 12)), .stateChanged(.approved(attempt)),
        ], to: &state)
    }

    @Test func aDelayedCaptureCountsDown() throws {
        try check("square-authorized") { width, height in
            var state = try paying(width, height)
            approvedPayment(&state, id: "Aq9gJCspQgVlCjawehibsl0rh")
            let payment = SquarePayment(
                id: "Aq9gJCspQgVlCjawehibsl0rh", status: "APPROVED", amountMoney: SquareMoney(amount: 5180, currency: "USD"),
                totalMoney: SquareMoney(amount: 5180, currency: "USD"), delayAction: "CANCEL", delayedUntil: "2027-01-15T08:10:30.000Z",
                cardDetails: SquareCardDetails(status: "AUTHORIZED", card: SquareCard(cardBrand: "VISA", last4: "1111"), entryMethod: "CONTACTLESS"))
            let decision = SquareAdapter.authorizedPrompt(payment)
            _ = Screens.apply([.phaseChanged(.step("authorized")), .promptChanged(decision), .tick(Screens.start.addingTimeInterval(42))], to: &state)
            return state
        }
    }

    /// The screen once `receipt` settled the approved payment `id`.
    private func receiptShown(_ width: Int, _ height: Int, paymentID id: String, minorUnits: Int = 5180, _ receipt: SettlementReceipt) throws -> AppState {
        var state = try paying(width, height)
        approvedPayment(&state, id: id, minorUnits: minorUnits)
        _ = Screens.apply([.phaseChanged(.completed(receipt))], to: &state)
        return state
    }

    @Test func thePrintedReceipt() throws {
        try check("square-receipt", styles: true) { width, height in
            let payment = SquarePayment(
                id: "Aq9gJCspQgVlCjawehibsl0rh", status: "COMPLETED", amountMoney: SquareMoney(amount: 4505, currency: "USD"),
                tipMoney: SquareMoney(amount: 675, currency: "USD"), totalMoney: SquareMoney(amount: 5180, currency: "USD"),
                cardDetails: SquareCardDetails(
                    status: "CAPTURED", card: SquareCard(cardBrand: "VISA", last4: "1111", cardholderName: "Ada Lovelace"), entryMethod: "CONTACTLESS",
                    applicationName: "VISA CREDIT", applicationIdentifier: "A0000000031010"),
                referenceID: "tc-0a1b2c3d", receiptNumber: "Aq9g", receiptURL: "http://127.0.0.1:8080/sandbox/square/receipts/Aq9gJCspQgVlCjawehibsl0rh")
            let receipt = SettlementReceipt(
                paymentID: payment.id, details: ["receipt_number": "Aq9g", "entry_method": "CONTACTLESS", "status": "COMPLETED"],
                printout: SquareAdapter.printout(payment, merchant: "Driftwood Coffee Co."))
            return try receiptShown(width, height, paymentID: "Aq9gJCspQgVlCjawehibsl0rh", receipt)
        }
    }

    /// A payment cancelled while authorized (as asked, through the payment handle, or by the
    /// delay action): the receipt pane says voided and nothing charged, never "paid".
    @Test func aVoidedAuthorizationsReceiptSaysNothingWasCharged() throws {
        try check("square-voided-receipt", styles: true) { width, height in
            let payment = SquarePayment(
                id: "Aq9gJCspQgVlCjawehibsl0rh", status: "CANCELED", amountMoney: SquareMoney(amount: 4505, currency: "USD"),
                totalMoney: SquareMoney(amount: 4505, currency: "USD"),
                cardDetails: SquareCardDetails(status: "VOIDED", card: SquareCard(cardBrand: "VISA", last4: "1111"), entryMethod: "CONTACTLESS"),
                referenceID: "tc-0a1b2c3d")
            let receipt = SettlementReceipt(
                paymentID: payment.id, details: ["entry_method": "CONTACTLESS", "status": "CANCELED", "sdk_outcome": "cancelled"],
                headline: "Cancelled through the payment handle (didCancel): CancelPaymentByIdempotencyKey voided the authorization; nothing was charged.",
                printout: SquareAdapter.printout(payment, merchant: "Driftwood Coffee Co."), charged: false)
            return try receiptShown(width, height, paymentID: "Aq9gJCspQgVlCjawehibsl0rh", receipt)
        }
    }

    @Test func aDeclinedCardSaysWhy() throws {
        try check("square-declined", styles: true) { width, height in
            var state = try paying(width, height)
            var attempt = PaymentAttempt(provider: "square", id: "9pVIg77GbGCPuxLifGTPqZzHr", status: .declined, amount: Money(minorUnits: 4505, currency: .usd))
            attempt.declineReason = "CVV_FAILURE"
            _ = Screens.apply([
                .promptChanged(nil), .stateChanged(.creatingRequest(PaymentAttempt(provider: "square", amount: attempt.amount))),
                .exchange(Screens.exchange(1, "POST", "/v2/payments", status: 400, milliseconds: 9)), .stateChanged(.declined(attempt)),
            ], to: &state)
            return state
        }
    }

    // MARK: Issue 28: another card, the split tender, the tip after authorization

    @Test func anotherCardAfterADecline() throws {
        try check("square-another-card", styles: true) { width, height in
            var state = try paying(width, height)
            _ = Screens.apply([
                .promptChanged(nil), .stateChanged(.creatingRequest(PaymentAttempt(provider: "square", amount: Self.amount))),
                .exchange(Screens.exchange(1, "POST", "/v2/payments", status: 400, milliseconds: 9)),
                .promptChanged(SquareAdapter.anotherCardPrompt(code: "GENERIC_DECLINE", total: Self.amount, reference: "tc-0a1b2c3d")),
            ], to: &state)
            return state
        }
    }

    @Test func theRemainderOfAPartialAuthorization() throws {
        try check("square-remainder") { width, height in
            var state = try paying(width, height)
            _ = Screens.apply([
                .promptChanged(nil), .stateChanged(.creatingRequest(PaymentAttempt(provider: "square", amount: Self.amount))),
                .exchange(Screens.exchange(1, "POST", "/v2/payments", status: 200, milliseconds: 11)),
                .promptChanged(SquareAdapter.remainderPrompt(
                    Money(minorUnits: 3505, currency: .usd), paid: Money(minorUnits: 1000, currency: .usd), keyedEntryAllowed: true)),
            ], to: &state)
            return state
        }
    }

    private static let authorized = SquarePayment(
        id: "Aq9gJCspQgVlCjawehibsl0rh", status: "APPROVED", amountMoney: SquareMoney(amount: 4505, currency: "USD"),
        totalMoney: SquareMoney(amount: 4505, currency: "USD"), delayAction: "CANCEL", delayedUntil: "2027-01-15T08:10:30.000Z",
        cardDetails: SquareCardDetails(status: "AUTHORIZED", card: SquareCard(cardBrand: "VISA", last4: "1111"), entryMethod: "CONTACTLESS"))

    @Test func addingATipAfterAuthorization() throws {
        try check("square-add-tip") { width, height in
            var state = try paying(width, height)
            approvedPayment(&state, id: Self.authorized.id)
            _ = Screens.apply([
                .phaseChanged(.step("authorized")),
                .promptChanged(SquareAdapter.addTipPrompt(amount: Self.amount, current: Money(minorUnits: 0, currency: .usd))), .key(.down),
            ], to: &state)
            return state
        }
    }

    @Test func theReceiptOfATipAddedAfterAuthorization() throws {
        try check("square-tip-adjusted-receipt", styles: true) { width, height in
            var payment = Self.authorized
            payment.status = "COMPLETED"
            payment.tipMoney = SquareMoney(amount: 676, currency: "USD")
            payment.totalMoney = SquareMoney(amount: 5181, currency: "USD")
            payment.receiptNumber = "Aq9g"
            payment.cardDetails?.status = "CAPTURED"
            let receipt = SettlementReceipt(
                paymentID: payment.id, details: ["receipt_number": "Aq9g", "entry_method": "CONTACTLESS", "status": "COMPLETED"],
                headline: "Tip $6.76 added after authorization (UpdatePayment); total $51.81.",
                printout: SquareAdapter.printout(payment, merchant: "Driftwood Coffee Co."), total: Money(minorUnits: 5181, currency: .usd))
            // The banner says what the sale came to, and what was asked.
            return try receiptShown(width, height, paymentID: Self.authorized.id, minorUnits: 4505, receipt)
        }
    }

    /// A tip and the completion after approval still count: the receipt's time and the banner's
    /// elapsed stop when the settlement ends, never going back to when the card was approved.
    @Test func theClockStopsWhenTheSettlementEndsNotAtApproval() throws {
        var state = try paying(100, 30)
        approvedPayment(&state, id: Self.authorized.id, minorUnits: 4505)
        let approvedAt = state.now
        let receipt = SettlementReceipt(paymentID: Self.authorized.id, details: ["status": "COMPLETED"])
        _ = Screens.apply([.phaseChanged(.step("authorized")), .tick(approvedAt.addingTimeInterval(9)), .phaseChanged(.completed(receipt)),
                           .tick(approvedAt.addingTimeInterval(30))], to: &state)
        let started = try #require(state.checkout.flowStartedAt)
        #expect(state.receipt?.seconds == Int(approvedAt.addingTimeInterval(9).timeIntervalSince(started)))
        #expect(state.checkout.endedAt == approvedAt.addingTimeInterval(9))
    }

    @Test func theReceiptOfASplitTender() throws {
        try check("square-split-receipt", styles: true) { width, height in
            let gift = SquarePayment(
                id: "GfT0aKr2mB7sQe1vXn4pLd9yZ", status: "COMPLETED", amountMoney: SquareMoney(amount: 1000, currency: "USD"),
                totalMoney: SquareMoney(amount: 1000, currency: "USD"),
                cardDetails: SquareCardDetails(status: "CAPTURED", card: SquareCard(cardBrand: "SQUARE_GIFT_CARD", last4: "0000"), entryMethod: "SWIPED"),
                receiptNumber: "GfT0")
            let card = SquarePayment(
                id: "Aq9gJCspQgVlCjawehibsl0rh", status: "COMPLETED", amountMoney: SquareMoney(amount: 4180, currency: "USD"),
                totalMoney: SquareMoney(amount: 4180, currency: "USD"),
                cardDetails: SquareCardDetails(
                    status: "CAPTURED", card: SquareCard(cardBrand: "VISA", last4: "1111", cardholderName: "Ada Lovelace"), entryMethod: "CONTACTLESS"),
                receiptNumber: "Aq9g")
            let receipt = SettlementReceipt(
                paymentID: gift.id, details: ["receipt_number": "GfT0", "status": "COMPLETED"], headline: "Paid in 2 payments: every one completed.",
                printout: SquareAdapter.salePrintout([gift, card], merchant: "Driftwood Coffee Co."))
            return try receiptShown(width, height, paymentID: "GfT0aKr2mB7sQe1vXn4pLd9yZ", receipt)
        }
    }
}
