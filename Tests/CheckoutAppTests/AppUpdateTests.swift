import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire
import TerminalUI
import Testing

/// Keys in each state: the state they leave and the commands they ask for.
@Suite struct AppUpdateTests {
    private func press(_ keys: [Key], in state: inout AppState) -> [AppCommand] {
        Screens.apply(keys.map(AppMessage.key), to: &state)
    }

    private func ready() throws -> AppState {
        var state = try Screens.state()
        _ = Screens.apply(Screens.created, to: &state)
        return state
    }

    private func polling() throws -> AppState {
        var state = try Screens.state()
        _ = Screens.apply(Screens.polling, to: &state)
        return state
    }

    private func ended(_ final: CheckoutState) throws -> AppState {
        var state = try polling()
        _ = Screens.apply([.stateChanged(final)], to: &state)
        return state
    }

    @Test func tabAndShiftTabCycleThroughVisiblePanes() throws {
        var state = try Screens.state()
        _ = press([.tab], in: &state)
        #expect(state.layout.focus == .shipping)
        _ = press([.tab, .tab, .tab], in: &state)
        #expect(state.layout.focus == .cart)
        _ = press([.backTab], in: &state)
        #expect(state.layout.focus == .log)
        _ = press([.character("l")], in: &state)
        #expect(!state.layout.logVisible)
        #expect(state.layout.focus == .cart)
        _ = press([.backTab], in: &state)
        #expect(state.layout.focus == .payment)
    }

    @Test func arrowsAndVimKeysMoveWithinTheFocusedListAndStopAtItsEnds() throws {
        var state = try Screens.state()
        _ = press([.down, .down, .down], in: &state)
        #expect(state.layout.cartCursor == 1)
        _ = press([.character("k"), .character("k")], in: &state)
        #expect(state.layout.cartCursor == 0)
        _ = press([.tab, .character("j"), .character("j")], in: &state)
        #expect(state.layout.shippingCursor == 2)
        #expect(state.cart.selectedShippingID == "standard")
    }

    @Test func plusAndMinusChangeQuantityAndZeroRemovesButNeverTheLastItem() throws {
        var state = try Screens.state()
        #expect(press([.character("+")], in: &state).isEmpty)
        #expect(state.cart.items[0].quantity == 3)
        _ = press([.down, .character("-")], in: &state)
        #expect(state.cart.items.map(\.sku) == ["BEAN-HOUSE-12"])
        #expect(state.layout.cartCursor == 0)
        _ = press([.character("-"), .character("-"), .character("-")], in: &state)
        #expect(state.cart.items.count == 1)
        #expect(state.cart.items[0].quantity == 1)
        #expect(state.layout.notice?.text.contains("last item") == true)
    }

    @Test func enterOnShippingSelectsItAndTheTotalChangesAtOnce() throws {
        var state = try Screens.state()
        _ = press([.tab, .down, .enter], in: &state)
        #expect(state.cart.selectedShippingID == "express")
        #expect(try state.summary.get().total.formatted == "$55.05")
    }

    @Test func payCreatesTheRequestForTheCartTotalAndFocusesPayment() throws {
        var state = try Screens.state()
        let commands = press([.character("p")], in: &state)
        guard case .session(.pay(let order, let provider))? = commands.first else { Issue.record("expected pay, got \(commands)"); return }
        #expect(order.amount.minorUnits == 4505)
        #expect(provider.id == "cashapp")
        #expect(state.checkout.provider?.id == "cashapp")
        #expect(state.layout.focus == .payment)
    }

    @Test func payOrEnterOnPaymentAuthorizesWhenReady() throws {
        var state = try ready()
        #expect(press([.character("p")], in: &state) == [.authorize])
        _ = press([.tab, .tab], in: &state)
        #expect(state.layout.focus == .payment)
        #expect(press([.enter], in: &state) == [.authorize])
    }

    @Test func changingTheCartWhileReadyUpdatesTheRequest() throws {
        var state = try ready()
        let commands = press([.character("+")], in: &state)
        guard case .session(.changeOrder(let order))? = commands.first else { Issue.record("expected changeOrder, got \(commands)"); return }
        #expect(order.amount.minorUnits == 6274)  // 3 × 16.50 + 14 − 5 = 58.50, tax 4.24
    }

    @Test func theCartIsLockedWhileTheCustomerPays() throws {
        var state = try polling()
        #expect(press([.character("+")], in: &state).isEmpty)
        #expect(state.cart.items[0].quantity == 2)
        #expect(state.layout.notice?.text.contains("locked") == true)
    }

    @Test func approveAndDeclineActAsTheCustomerWhilePolling() throws {
        var state = try polling()
        #expect(press([.character("a")], in: &state) == [.actAsCustomer(.approve, attemptID: Screens.requestID)])
        #expect(press([.character("x")], in: &state) == [.actAsCustomer(.decline, attemptID: Screens.requestID)])
    }

    @Test func approveOutsideTheEmbeddedSandboxSaysWhere() throws {
        var state = try polling()
        state.customerSimulated = false
        #expect(press([.character("a")], in: &state).isEmpty)
        #expect(state.layout.notice?.text.contains("their own device") == true)
    }

    @Test func approveBeforeAuthorizingExplains() throws {
        var state = try ready()
        #expect(press([.character("a")], in: &state).isEmpty)
        #expect(state.layout.notice?.text.contains("authorize first") == true)
    }

    @Test func restartOnlyAfterATerminalState() throws {
        var running = try polling()
        #expect(press([.character("r")], in: &running).isEmpty)
        var done = try ended(.declined(Screens.request(status: CustomerRequest.Status.DECLINED)))
        #expect(press([.character("r")], in: &done) == [.reset])
        var idle = try Screens.state()
        #expect(press([.character("r")], in: &idle).isEmpty)
    }

    @Test func quitAsksFirstWhileAPaymentIsInFlight() throws {
        var idle = try Screens.state()
        _ = press([.character("q")], in: &idle)
        #expect(idle.quitRequested)

        var busy = try polling()
        _ = press([.character("q")], in: &busy)
        #expect(!busy.quitRequested)
        #expect(busy.layout.overlay == .confirmQuit)
        _ = press([.character("n")], in: &busy)
        #expect(busy.layout.overlay == nil)
        _ = press([.character("q"), .character("y")], in: &busy)
        #expect(busy.quitRequested)

        var interrupted = try polling()
        _ = press([.control("c")], in: &interrupted)
        #expect(interrupted.quitRequested)
    }

    @Test func helpOpensAndEscapeClosesIt() throws {
        var state = try Screens.state()
        _ = press([.character("?")], in: &state)
        #expect(state.layout.overlay == .help)
        #expect(press([.character("p")], in: &state).isEmpty)
        _ = press([.escape], in: &state)
        #expect(state.layout.overlay == nil)
    }

    @Test func enterOnALogEntryOpensItsDetailWhichScrolls() throws {
        var state = try polling()
        _ = press([.tab, .tab, .tab], in: &state)
        #expect(state.layout.focus == .log)
        _ = press([.up, .up, .enter], in: &state)
        #expect(state.layout.overlay == .httpDetail(exchangeID: 1, scroll: 0))
        _ = press([.down, .down, .pageDown, .up], in: &state)
        #expect(state.layout.overlay == .httpDetail(exchangeID: 1, scroll: 1 + 24))
        _ = press([.escape], in: &state)
        #expect(state.layout.overlay == nil)
    }

    @Test func theLogFollowsNewEntriesUnlessTheUserMovedUp() throws {
        var state = try polling()
        #expect(state.layout.logCursor == 2)
        _ = press([.tab, .tab, .tab, .up], in: &state)
        _ = Screens.apply([.exchange(Screens.exchange(4, "GET", "/x", status: 200, milliseconds: 1))], to: &state)
        #expect(state.layout.logCursor == 1)
        _ = press([.down, .down], in: &state)
        _ = Screens.apply([.exchange(Screens.exchange(5, "GET", "/x", status: 200, milliseconds: 1))], to: &state)
        #expect(state.layout.logCursor == 4)
    }

    @Test func resizeAndTicksUpdateTheFrame() throws {
        var state = try Screens.state()
        _ = Screens.apply([.resized(width: 120, height: 40), .tick(Screens.start.addingTimeInterval(5))], to: &state)
        #expect(state.layout.width == 120 && state.layout.height == 40)
        #expect(state.now == Screens.start.addingTimeInterval(5))
    }

    @Test func noticesFadeAfterAFewSeconds() throws {
        var state = try polling()
        _ = press([.character("+")], in: &state)
        #expect(state.layout.notice != nil)
        _ = Screens.apply([.tick(state.now.addingTimeInterval(7))], to: &state)
        #expect(state.layout.notice == nil)
    }

    @Test func pollingGivesUpOnceAtTheAuthorizationTimeout() throws {
        var state = try polling()
        state.authorizationTimeoutSeconds = 60
        let entered = state.checkout.stateEnteredAt
        #expect(Screens.apply([.tick(entered.addingTimeInterval(59))], to: &state).isEmpty)
        #expect(Screens.apply([.tick(entered.addingTimeInterval(60.1))], to: &state) == [.giveUp(afterSeconds: 60)])
        #expect(Screens.apply([.tick(entered.addingTimeInterval(61))], to: &state).isEmpty)
    }

    private func afterpaySelected() throws -> AppState {
        var state = try Screens.state()
        _ = press([.tab, .tab, .down, .enter], in: &state)
        #expect(state.selectedPaymentMethod.id == "afterpay")
        return state
    }

    @Test func payingWithAfterpayBeginsWithTheCartAsAnAfterpayCheckout() throws {
        var state = try afterpaySelected()
        let commands = press([.character("p")], in: &state)
        guard case .session(.pay(let order, let provider))? = commands.first else { Issue.record("expected pay, got \(commands)"); return }
        #expect(provider == ProviderPlan(id: "afterpay", prepares: true, settles: true))
        let checkout = AfterpayCheckoutRequest.forOrder(order, reference: "tc-test")
        #expect(checkout.amount == .init(amount: "45.05", currency: "USD"))
        #expect(checkout.isCashAppPay == true)
        #expect(checkout.merchant?.redirectConfirmUrl != nil && checkout.merchant?.redirectCancelUrl != nil)
        #expect(checkout.items?.count == 2)
        #expect(checkout.taxAmount?.amount == "3.05")
        // While the token is made the cart and a second p are refused.
        _ = Screens.apply([.phaseChanged(.step("token"))], to: &state)
        #expect(press([.character("p")], in: &state).isEmpty)
        #expect(press([.character("+")], in: &state).isEmpty)
        #expect(state.cart.items[0].quantity == 2)
    }

    @Test func anApprovedAfterpayRequestIsSettledAndOnlyThenEnded() throws {
        var state = try afterpaySelected()
        let request = Screens.request(status: .APPROVED, approved: true, provider: "afterpay")
        _ = press([.character("p")], in: &state)
        _ = Screens.apply(Screens.pollingMessages(provider: "afterpay") + [.stateChanged(.approved(request))], to: &state)
        // Settling is the coordinator's: the screen waits for its phases.
        #expect(!state.checkout.ended)
        #expect(press([.character("r")], in: &state).isEmpty)
        _ = Screens.apply([.phaseChanged(.step("validating")), .phaseChanged(.step("capturing")), .phaseChanged(.completed(SettlementReceipt(paymentID: "100200300", payer: "$SandboxShopper")))], to: &state)
        #expect(state.checkout.ended)
        #expect(press([.character("r")], in: &state) == [.reset])
        _ = Screens.apply([.stateChanged(.notStarted)], to: &state)
        #expect(state.checkout.phase == nil)
    }

    @Test func aCartChangeBeforeAuthorizingGetsANewAfterpayTokenThenUpdates() throws {
        var state = try afterpaySelected()
        _ = press([.character("p")], in: &state)
        _ = Screens.apply([.phaseChanged(.step("token")), .phaseChanged(.step("signing"))] + Screens.createdMessages(provider: "afterpay"), to: &state)
        #expect(state.checkout.phase == nil)
        let commands = press([.character("+")], in: &state)
        guard case .session(.changeOrder(let order))? = commands.first else { Issue.record("expected changeOrder, got \(commands)"); return }
        #expect(AfterpayCheckoutRequest.forOrder(order, reference: "tc-test").amount?.amount == "62.74")
        // While Afterpay re-signs, further changes wait.
        _ = Screens.apply([.phaseChanged(.step("token"))], to: &state)
        #expect(press([.character("+")], in: &state).isEmpty)
        #expect(state.layout.notice?.text.contains("Afterpay is token") == true)
    }
}
