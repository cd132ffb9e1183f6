@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import Synchronization
import ProviderWire
import TerminalUI
import Testing

/// Cash App Pay's PayKit paths on the screen: the request made as the checkout loads, the
/// on-file switch, the methods an apiError hides, and the on-file receipt. Messages go through
/// the real update function; time comes in as ticks, so nothing sleeps.
@Suite struct CashAppPayKitScreenTests {
    private func loaded() throws -> (AppState, [AppCommand]) {
        var state = try Screens.state()
        let commands = Screens.apply([.sessionStarted(endpointLabel: "embedded sandbox 127.0.0.1:8080")], to: &state)
        return (state, commands)
    }

    private func payOrder(_ commands: [AppCommand]) -> PaymentOrder? {
        for command in commands { if case .session(.pay(let order, _)) = command { return order } }
        return nil
    }

    @Test func theRequestIsCreatedAsTheCheckoutLoadsAndTheFirstPAuthorizes() throws {
        var (state, commands) = try loaded()
        let order = try #require(payOrder(commands), "\(commands)")
        #expect(order.amount.minorUnits == 4505)
        #expect(state.checkout.createdOnLoad && state.checkout.provider?.id == "cashapp")
        _ = Screens.apply(Screens.created, to: &state)
        #expect(state.checkout.untouchedOnLoad)
        // Nothing the customer saw: quitting asks nothing.
        var quitting = state
        _ = Screens.apply([.key(.character("q"))], to: &quitting)
        #expect(quitting.quitRequested && quitting.layout.overlay == nil)
        // The cart follows the request (updateCustomerRequest) before the first p.
        let changed = Screens.apply([.key(.character("+"))], to: &state)
        #expect(changed.contains { if case .session(.changeOrder(let next)) = $0 { next.amount != order.amount } else { false } }, "\(changed)")
        // The first p authorizes at once, and the checkout is the customer's from then on.
        #expect(Screens.apply([.key(.character("p"))], to: &state) == [.authorize])
        #expect(!state.checkout.createdOnLoad)
    }

    /// Another method chosen before the request made on load has reported back is still a drop.
    @Test func choosingAnotherMethodBeforeTheFirstStateComesBackDropsIt() throws {
        var (state, _) = try loaded()
        #expect(state.checkout.untouchedOnLoad && state.checkout.state == .notStarted)
        #expect(Screens.apply([.key(.character("p"))], to: &state).isEmpty)
        let commands = Screens.apply([.key(.tab), .key(.tab), .key(.down), .key(.enter)], to: &state)
        #expect(commands.first == .reset && state.selectedPaymentIndex == 1 && !state.checkout.createdOnLoad, "\(commands)")
    }

    @Test func createOnLoadFalseWaitsForP() throws {
        var state = try Screens.state()
        var values = ProviderOptionValues()
        values["create-on-load"] = "false"
        state.paymentMethods = TerminalCheckout.paymentMethods(.builtIn, options: values)
        #expect(Screens.apply([.sessionStarted(endpointLabel: "x")], to: &state).isEmpty)
        #expect(state.checkout.idle)
        #expect(payOrder(Screens.apply([.key(.character("p"))], to: &state)) != nil)
    }

    @Test func choosingAnotherMethodDropsTheRequestMadeOnLoad() throws {
        var (state, _) = try loaded()
        _ = Screens.apply(Screens.created, to: &state)
        let afterpay = try #require(state.paymentMethods.firstIndex { $0.id == "afterpay" })
        let commands = Screens.apply([.key(.tab), .key(.tab)] + Array(repeating: .key(.down), count: afterpay) + [.key(.enter)], to: &state)
        #expect(commands.first == .reset, "\(commands)")
        #expect(state.selectedPaymentMethod.id == "afterpay" && state.checkout.idle)
        // p pays with the new choice at once (the session's reset goes before it); the dropped
        // request's late states are not this checkout's.
        var paying = state
        #expect(payOrder(Screens.apply([.key(.character("p"))], to: &paying)) != nil)
        _ = Screens.apply([.stateChanged(.readyToAuthorize(Screens.request())), .stateChanged(.notStarted)], to: &paying)
        #expect(paying.checkout.state == .notStarted && paying.checkout.provider?.id == "afterpay")
        // Afterpay does not create on load: the new checkout waits for p.
        #expect(payOrder(Screens.apply([.stateChanged(.notStarted)], to: &state)) == nil)
        #expect(state.checkout.idle)
    }

    /// A request made on load that failed (apiError here) gives way to another method at once.
    @Test func anOnLoadFailureGivesWayToAnotherMethod() throws {
        var (state, _) = try loaded()
        _ = Screens.apply(Self.apiError, to: &state)
        #expect(state.checkout.onLoadFailed && state.isUnavailable("cashapp"))
        let square = try #require(state.paymentMethods.firstIndex { !state.isUnavailable($0.id) })
        let commands = Screens.apply([.key(.tab), .key(.tab)] + Array(repeating: .key(.down), count: square) + [.key(.enter)], to: &state)
        #expect(commands.first == .reset && state.checkout.idle, "\(commands)")
        #expect(payOrder(Screens.apply([.key(.character("p"))], to: &state)) != nil)
    }

    @Test func theOnFileSwitchAddsAnOnFileActionAndFollowsARequestMadeOnLoad() throws {
        var (state, _) = try loaded()
        _ = Screens.apply(Screens.created, to: &state)
        let commands = Screens.apply([.key(.tab), .key(.tab), .key(.character("s"))], to: &state)
        guard case .session(.changeOrder(let order))? = commands.first else {
            Issue.record("expected the request to follow the switch, got \(commands)")
            return
        }
        #expect(order.providerOptions == ["on-file": "true"])
        let draft = PaymentAttempt(provider: "cashapp", amount: order.amount, reference: "tc-1")
        let settings = CashAppPaySettings(accountReferenceID: "customer-42", redirectURL: "https://shop.example/return")
        let params = CashAppAdapter.createParams(draft, order: order, brandID: "BRAND_x", settings: settings)
        #expect(params.actions.map(\.type) == [.ONE_TIME_PAYMENT, .ON_FILE_PAYMENT])
        #expect(params.actions.last?.accountReferenceID == "customer-42" && params.actions.last?.amount == nil)
        #expect(params.redirectURL == "https://shop.example/return")
        // `--on-file only` with no switch on the payment: the on-file action alone.
        var only = settings
        only.onFile = .only
        var unswitched = order
        unswitched.providerOptions = [:]
        #expect(CashAppAdapter.createParams(draft, order: unswitched, brandID: "BRAND_x", settings: only).actions.map(\.type) == [.ON_FILE_PAYMENT])
    }

    @Test func anAPIErrorHidesEveryCashAppPayMethodUntilThePausePasses() throws {
        var state = try Screens.state()
        _ = Screens.apply(Self.apiError, to: &state)
        let hidden = try #require(state.unavailable)
        // Every method whose customer approves in Cash App, from the descriptors.
        let family = Set(state.paymentMethods.filter { $0.customerApp == state.paymentMethods[0].customerApp }.map(\.id))
        #expect(hidden.methodIDs == family && family.count >= 2)
        #expect(CheckoutView.render(state).text.contains("temporarily unavailable"))
        // It cannot be chosen.
        let index = try #require(state.paymentMethods.firstIndex { $0.id != "cashapp" && family.contains($0.id) })
        _ = Screens.apply([.key(.tab), .key(.tab)] + Array(repeating: .key(.down), count: index) + [.key(.enter)], to: &state)
        #expect(state.selectedPaymentIndex == 0)
        #expect(state.layout.notice?.text.contains("temporarily unavailable") == true)
        // A health check goes out after its interval; an unhealthy answer waits for the next.
        let checks = Screens.apply([.tick(Screens.start.addingTimeInterval(UnavailableMethods.healthCheckInterval + 1))], to: &state)
        #expect(checks == [.session(.checkHealth(provider: "cashapp"))])
        _ = Screens.apply([.healthChecked(provider: "cashapp", healthy: false)], to: &state)
        #expect(state.unavailable != nil)
        // The pause passes: back.
        _ = Screens.apply([.tick(hidden.until.addingTimeInterval(1))], to: &state)
        #expect(state.unavailable == nil)
        #expect(!CheckoutView.render(state).text.contains("temporarily unavailable"))
    }

    @Test func aHealthyCheckOrRBringsThemBack() throws {
        var state = try Screens.state()
        _ = Screens.apply(Self.apiError, to: &state)
        _ = Screens.apply([.healthChecked(provider: "cashapp", healthy: true)], to: &state)
        #expect(state.unavailable == nil)
        _ = Screens.apply([.stateChanged(.notStarted)] + Self.apiError, to: &state)
        #expect(state.unavailable != nil)
        #expect(Screens.apply([.key(.character("r"))], to: &state) == [.reset])
        #expect(state.unavailable == nil)
    }

    @Test func aPauseOfZeroHidesNothing() throws {
        var state = try Screens.state()
        var values = ProviderOptionValues()
        values["api-error-pause"] = "0"
        state.paymentMethods = TerminalCheckout.paymentMethods(.builtIn, options: values)
        _ = Screens.apply(Self.apiError, to: &state)
        #expect(state.unavailable == nil)
    }

    @Test func optionsAreCheckedWithTheFieldAndTheAllowedValues() {
        func problem(_ values: [String: String]) -> String? { ProviderDescriptor.cashApp.optionProblem(ProviderOptionValues(values)) }
        #expect(problem(["on-file": "sometimes"])?.contains("--on-file must be also or only") == true)
        #expect(problem(["redirect-url": "not a url"])?.contains("--redirect-url must be an absolute URL") == true)
        #expect(problem(["redirect-url": "/relative/path"])?.contains("--redirect-url") == true)
        #expect(problem(["create-on-load": "yes"])?.contains("--create-on-load must be true or false") == true)
        #expect(problem(["api-error-pause": "-1"])?.contains("0 to 86400") == true)
        #expect(problem(["account-reference-id": String(repeating: "c", count: 1025)])?.contains("1 to 1024 characters") == true)
        #expect(problem(["account-reference-id": "c-1"]) == nil)
        #expect(problem(["on-file": "only", "account-reference-id": "c-1", "redirect-url": "myapp://done", "create-on-load": "false", "api-error-pause": "60"]) == nil)
    }

    /// The real screen on the embedded sandbox: the request made on load is dropped when another
    /// method is chosen, and nothing more happens to it (no authorization, no polling, so the
    /// customer is never asked and nothing is charged); the new method's checkout goes on.
    @Test func aRequestMadeOnLoadAndDroppedIsNeverAuthorized() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("onload-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let terminal = InMemoryTerminal(width: 100, height: 30)
        var options = TerminalCheckoutOptions(session: SessionOptions(registry: .builtIn), colors: false, recordPath: path)
        options.terminal = { terminal }
        options.quietEnd = true
        let failure = Mutex<String?>(nil)
        let thread = Thread {
            func fail(_ why: String) {
                failure.withLock { $0 = "\(why): \(terminal.lastScreen?.text ?? "no frame")" }
                terminal.send(keys: [.control("c")])
            }
            // The sandbox starts first: on a loaded machine (the whole suite at once) that can take a while.
            guard terminal.waitForScreen(containing: "readyToAuthorize", timeout: .seconds(90)) != nil else { return fail("never made on load") }
            // Square's card payment instead (its reader waits for the person at the terminal).
            terminal.send(keys: [.tab, .tab, .down, .down, .down, .enter])
            guard terminal.waitForScreen(containing: "(•) Card (Square)", timeout: .seconds(20)) != nil else { return fail("never chose Square") }
            guard terminal.waitForScreen(containing: "notStarted", timeout: .seconds(20)) != nil else { return fail("never started over") }
            terminal.send(keys: [.character("q")])
        }
        thread.start()
        _ = await TerminalCheckout.run(options: options, writeError: { _ in })
        #expect(failure.withLock { $0 } == nil, "\(failure.withLock { $0 } ?? "")")
        let calls = try Transcript.load(path).log.entries.map { "\($0.request.method) \($0.request.url)" }
        let creates = calls.filter { $0.hasPrefix("POST ") && $0.hasSuffix("/customer-request/v1/requests") }
        #expect(creates.count == 1, "\(calls)")
        #expect(!calls.contains { $0.contains("/customer-request/v1/requests/GRR_") || $0.contains("/sandbox/customer-requests/") }, "\(calls)")
    }

    static let apiError: [AppMessage] = [
        .stateChanged(.creatingRequest(PaymentAttempt(provider: "cashapp", amount: Money(minorUnits: 4505, currency: .usd)))),
        .exchange(Screens.exchange(1, "POST", "/customer-request/v1/requests", status: 500, milliseconds: 9)),
        .stateChanged(.apiError(ProviderFailure(kind: .api, category: "API_ERROR", code: "INTERNAL_SERVER_ERROR", detail: "Sandbox magic amount 6670: the API failed."))),
    ]

    /// An approved on-file request: the one-time grant and the EXTENDED one.
    static func onFileApproved() -> PaymentAttempt {
        var request = Screens.cashAppRequest(status: .APPROVED, approved: true)
        let onFile = PaymentAction(type: .ON_FILE_PAYMENT, scopeID: "BRAND_terminalcheckout", accountReferenceID: "customer-42")
        request.actions.append(onFile)
        request.grants?.append(
            Grant(id: "GRG_0nf1le8x2k", customerID: "CST_9c2kd81hq", action: onFile, status: .ACTIVE, type: .EXTENDED, channel: .ONLINE,
                  createdAt: Screens.start, updatedAt: Screens.start, expiresAt: nil))
        return PaymentAttempt(cashAppRequest: request, provider: "cashapp")
    }

    // Golden screens at 80×24 and 100×30.

    private func check(_ name: String, _ make: (Int, Int) throws -> AppState) throws {
        for (width, height) in GoldenScreenTests.sizes {
            let screen = CheckoutView.render(try make(width, height))
            try Golden.compare(screen.text, file: "\(name)-\(width)x\(height).txt")
            try Golden.compare(screen.styleMap, file: "\(name)-\(width)x\(height).style")
        }
    }

    @Test func goldenOnFileSwitch() throws {
        try check("cashapp-on-file-switch") { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply([.key(.tab), .key(.tab), .key(.character("s"))], to: &state)
            return state
        }
    }

    @Test func goldenTemporarilyUnavailable() throws {
        try check("cashapp-temporarily-unavailable") { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(Self.apiError + [.key(.tab), .key(.tab), .key(.down), .key(.enter)], to: &state)
            return state
        }
    }

    @Test func goldenOnFileReceipt() throws {
        try check("cashapp-on-file-receipt") { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(Screens.polling + [.stateChanged(.approved(Self.onFileApproved()))], to: &state)
            return state
        }
        let attempt = Self.onFileApproved()
        #expect(attempt.grantTypes == ["ONE_TIME", "EXTENDED"])
        #expect(attempt.grantsWithTypes == ["GRG_7hx2m4q9t1c8 (ONE_TIME)", "GRG_0nf1le8x2k (EXTENDED)"])
    }
}
