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

    private func ended(_ final: CashAppPayState) throws -> AppState {
        var state = try polling()
        _ = Screens.apply([.stateChanged(final)], to: &state)
        return state
    }

    @Test func tabAndShiftTabCycleThroughVisiblePanes() throws {
        var state = try Screens.state()
        _ = press([.tab], in: &state)
        #expect(state.focus == .shipping)
        _ = press([.tab, .tab, .tab], in: &state)
        #expect(state.focus == .cart)
        _ = press([.backTab], in: &state)
        #expect(state.focus == .log)
        _ = press([.character("l")], in: &state)
        #expect(!state.logVisible)
        #expect(state.focus == .cart)
        _ = press([.backTab], in: &state)
        #expect(state.focus == .payment)
    }

    @Test func arrowsAndVimKeysMoveWithinTheFocusedListAndStopAtItsEnds() throws {
        var state = try Screens.state()
        _ = press([.down, .down, .down], in: &state)
        #expect(state.cartCursor == 1)
        _ = press([.character("k"), .character("k")], in: &state)
        #expect(state.cartCursor == 0)
        _ = press([.tab, .character("j"), .character("j")], in: &state)
        #expect(state.shippingCursor == 2)
        #expect(state.cart.selectedShippingID == "standard")
    }

    @Test func plusAndMinusChangeQuantityAndZeroRemovesButNeverTheLastItem() throws {
        var state = try Screens.state()
        #expect(press([.character("+")], in: &state).isEmpty)
        #expect(state.cart.items[0].quantity == 3)
        _ = press([.down, .character("-")], in: &state)
        #expect(state.cart.items.map(\.sku) == ["BEAN-HOUSE-12"])
        #expect(state.cartCursor == 0)
        _ = press([.character("-"), .character("-"), .character("-")], in: &state)
        #expect(state.cart.items.count == 1)
        #expect(state.cart.items[0].quantity == 1)
        #expect(state.notice?.text.contains("last item") == true)
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
        guard case .createRequest(let params)? = commands.first else { Issue.record("expected create, got \(commands)"); return }
        #expect(params.actions.first?.amount == 4505)
        #expect(params.actions.first?.scopeID == "BRAND_terminalcheckout")
        #expect(state.focus == .payment)
    }

    @Test func payOrEnterOnPaymentAuthorizesWhenReady() throws {
        var state = try ready()
        #expect(press([.character("p")], in: &state) == [.authorize])
        _ = press([.tab, .tab], in: &state)
        #expect(state.focus == .payment)
        #expect(press([.enter], in: &state) == [.authorize])
    }

    @Test func changingTheCartWhileReadyUpdatesTheRequest() throws {
        var state = try ready()
        let commands = press([.character("+")], in: &state)
        guard case .updateRequest(let params)? = commands.first else { Issue.record("expected update, got \(commands)"); return }
        #expect(params.actions?.first?.amount == 6274)  // 3 × 16.50 + 14 − 5 = 58.50, tax 4.24
    }

    @Test func aChangeDuringAnUpdateIsSentWhenTheUpdateLands() throws {
        var state = try ready()
        _ = press([.character("+")], in: &state)
        _ = Screens.apply([.stateChanged(.updatingCustomerRequest(request: Screens.request(), params: .init(actions: nil)))], to: &state)
        // Still at the old amount when the update returns: the newest cart goes out again.
        let commands = Screens.apply([.stateChanged(.readyToAuthorize(Screens.request(amount: 4505)))], to: &state)
        #expect(commands.count == 1)
        let upToDate = Screens.apply([.stateChanged(.readyToAuthorize(Screens.request(amount: 6274)))], to: &state)
        #expect(upToDate.isEmpty)
    }

    @Test func theCartIsLockedWhileTheCustomerPays() throws {
        var state = try polling()
        #expect(press([.character("+")], in: &state).isEmpty)
        #expect(state.cart.items[0].quantity == 2)
        #expect(state.notice?.text.contains("locked") == true)
    }

    @Test func approveAndDeclineActAsTheCustomerWhilePolling() throws {
        var state = try polling()
        #expect(press([.character("a")], in: &state) == [.actAsCustomer(.approve, requestID: Screens.requestID)])
        #expect(press([.character("x")], in: &state) == [.actAsCustomer(.decline, requestID: Screens.requestID)])
    }

    @Test func approveOutsideTheEmbeddedSandboxSaysWhere() throws {
        var state = try polling()
        state.customerSimulated = false
        #expect(press([.character("a")], in: &state).isEmpty)
        #expect(state.notice?.text.contains("their own device") == true)
    }

    @Test func approveBeforeAuthorizingExplains() throws {
        var state = try ready()
        #expect(press([.character("a")], in: &state).isEmpty)
        #expect(state.notice?.text.contains("authorize first") == true)
    }

    @Test func restartOnlyAfterATerminalState() throws {
        var running = try polling()
        #expect(press([.character("r")], in: &running).isEmpty)
        var done = try ended(.declined(Screens.request(status: .DECLINED)))
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
        #expect(busy.overlay == .confirmQuit)
        _ = press([.character("n")], in: &busy)
        #expect(busy.overlay == nil)
        _ = press([.character("q"), .character("y")], in: &busy)
        #expect(busy.quitRequested)

        var interrupted = try polling()
        _ = press([.control("c")], in: &interrupted)
        #expect(interrupted.quitRequested)
    }

    @Test func helpOpensAndEscapeClosesIt() throws {
        var state = try Screens.state()
        _ = press([.character("?")], in: &state)
        #expect(state.overlay == .help)
        #expect(press([.character("p")], in: &state).isEmpty)
        _ = press([.escape], in: &state)
        #expect(state.overlay == nil)
    }

    @Test func enterOnALogEntryOpensItsDetailWhichScrolls() throws {
        var state = try polling()
        _ = press([.tab, .tab, .tab], in: &state)
        #expect(state.focus == .log)
        _ = press([.up, .up, .enter], in: &state)
        #expect(state.overlay == .httpDetail(exchangeID: 1, scroll: 0))
        _ = press([.down, .down, .pageDown, .up], in: &state)
        #expect(state.overlay == .httpDetail(exchangeID: 1, scroll: 1 + 24))
        _ = press([.escape], in: &state)
        #expect(state.overlay == nil)
    }

    @Test func theLogFollowsNewEntriesUnlessTheUserMovedUp() throws {
        var state = try polling()
        #expect(state.logCursor == 2)
        _ = press([.tab, .tab, .tab, .up], in: &state)
        _ = Screens.apply([.exchange(Screens.exchange(4, "GET", "/x", status: 200, milliseconds: 1))], to: &state)
        #expect(state.logCursor == 1)
        _ = press([.down, .down], in: &state)
        _ = Screens.apply([.exchange(Screens.exchange(5, "GET", "/x", status: 200, milliseconds: 1))], to: &state)
        #expect(state.logCursor == 4)
    }

    @Test func resizeAndTicksUpdateTheFrame() throws {
        var state = try Screens.state()
        _ = Screens.apply([.resized(width: 120, height: 40), .tick(Screens.start.addingTimeInterval(5))], to: &state)
        #expect(state.width == 120 && state.height == 40)
        #expect(state.now == Screens.start.addingTimeInterval(5))
    }

    @Test func noticesFadeAfterAFewSeconds() throws {
        var state = try polling()
        _ = press([.character("+")], in: &state)
        #expect(state.notice != nil)
        _ = Screens.apply([.tick(state.now.addingTimeInterval(7))], to: &state)
        #expect(state.notice == nil)
    }

    @Test func pollingGivesUpOnceAtTheAuthorizationTimeout() throws {
        var state = try polling()
        state.authorizationTimeoutSeconds = 60
        let entered = state.stateEnteredAt
        #expect(Screens.apply([.tick(entered.addingTimeInterval(59))], to: &state).isEmpty)
        #expect(Screens.apply([.tick(entered.addingTimeInterval(60.1))], to: &state) == [.giveUp(afterSeconds: 60)])
        #expect(Screens.apply([.tick(entered.addingTimeInterval(61))], to: &state).isEmpty)
    }

    private func afterpaySelected() throws -> AppState {
        var state = try Screens.state()
        _ = press([.tab, .tab, .down, .enter], in: &state)
        #expect(state.selectedPaymentMethod.isAfterpay)
        return state
    }

    @Test func payingWithAfterpayBeginsWithTheCartAsAnAfterpayCheckout() throws {
        var state = try afterpaySelected()
        let commands = press([.character("p")], in: &state)
        guard case .beginAfterpay(let checkout, _)? = commands.first else { Issue.record("expected beginAfterpay, got \(commands)"); return }
        #expect(checkout.amount == .init(amount: "45.05", currency: "USD"))
        #expect(checkout.isCashAppPay == true)
        #expect(checkout.merchant?.redirectConfirmUrl != nil && checkout.merchant?.redirectCancelUrl != nil)
        #expect(checkout.items?.count == 2)
        #expect(checkout.taxAmount?.amount == "3.05")
        // While the token is made the cart and a second p are refused.
        _ = Screens.apply([.phaseChanged(.token)], to: &state)
        #expect(press([.character("p")], in: &state).isEmpty)
        #expect(press([.character("+")], in: &state).isEmpty)
        #expect(state.cart.items[0].quantity == 2)
    }

    @Test func anApprovedAfterpayRequestIsSettledAndOnlyThenEnded() throws {
        var state = try afterpaySelected()
        let request = Screens.request(status: .APPROVED, approved: true)
        let commands = Screens.apply(Screens.polling + [.stateChanged(.approved(request: request, grants: request.grants!))], to: &state)
        #expect(commands.last == .settleAfterpay(request, grants: request.grants!))
        #expect(!state.checkoutEnded)
        #expect(press([.character("r")], in: &state).isEmpty)
        _ = Screens.apply([.phaseChanged(.validating), .phaseChanged(.capturing), .phaseChanged(.completed(paymentID: "100200300", cashtag: "$SandboxShopper"))], to: &state)
        #expect(state.checkoutEnded)
        #expect(press([.character("r")], in: &state) == [.reset])
        _ = Screens.apply([.stateChanged(.notStarted)], to: &state)
        #expect(state.phase == nil)
    }

    @Test func aCartChangeBeforeAuthorizingGetsANewAfterpayTokenThenUpdates() throws {
        var state = try afterpaySelected()
        _ = Screens.apply([.phaseChanged(.token), .phaseChanged(.signing)] + Screens.created, to: &state)
        #expect(state.phase == nil)
        let commands = press([.character("+")], in: &state)
        guard case .updateAfterpay(let checkout)? = commands.first else { Issue.record("expected updateAfterpay, got \(commands)"); return }
        #expect(checkout.amount?.amount == "62.74")
        // While Afterpay re-signs, further changes wait.
        _ = Screens.apply([.phaseChanged(.token)], to: &state)
        #expect(press([.character("+")], in: &state).isEmpty)
        #expect(state.notice?.text.contains("Afterpay is token") == true)
    }
}
