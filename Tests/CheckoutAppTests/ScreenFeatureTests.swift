@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire
import TerminalUI
import Testing

/// The QR code, the receipt, adding products and scenario-loaded screens, through the real
/// update function.
@Suite struct ScreenFeatureTests {
    private func polling(_ request: PaymentAttempt = Screens.request()) throws -> AppState {
        var state = try Screens.state()
        _ = Screens.apply(Screens.polling, to: &state)
        _ = Screens.apply([.stateChanged(.polling(request))], to: &state)
        return state
    }

    private func rotated(_ attempt: PaymentAttempt, token: String) -> PaymentAttempt {
        var attempt = attempt
        attempt.authorizationURL = Screens.link.replacingOccurrences(of: "t=0-k3x9m2qa", with: "t=\(token)")
        attempt.linkRefreshesAt = Screens.start.addingTimeInterval(60)
        return attempt
    }

    @Test func theQRCodeFollowsTheLinkAndGoesWhenTheCustomerHasDecided() throws {
        var state = try polling()
        let first = try #require(state.checkout.authorizationCode)
        #expect(first.url == Screens.link)
        #expect(first.width == 41 && first.height == 21)

        // A rotated trigger (a new token) redraws the code; the same link keeps it.
        _ = Screens.apply([.attemptChanged(rotated(Screens.request(), token: "1-zz9y8x7w"))], to: &state)
        let second = try #require(state.checkout.authorizationCode)
        #expect(second.url.hasSuffix("t=1-zz9y8x7w"))
        #expect(second.lines != first.lines)
        _ = Screens.apply([.attemptChanged(rotated(Screens.request(), token: "1-zz9y8x7w"))], to: &state)
        #expect(state.checkout.authorizationCode == second)

        _ = Screens.apply([.stateChanged(.approved(Screens.request(status: .APPROVED, approved: true)))], to: &state)
        #expect(state.checkout.authorizationCode == nil)
    }

    @Test func vHidesTheCodeAndSaysWhyWhenThereIsNone() throws {
        var state = try polling()
        _ = Screens.apply([.key(.character("v"))], to: &state)
        #expect(state.layout.codeHidden)
        #expect(!CheckoutView.render(state).text.contains("Scan to pay"))
        _ = Screens.apply([.key(.character("v"))], to: &state)
        #expect(CheckoutView.render(state).text.contains("Scan to pay"))

        var idle = try Screens.state()
        _ = Screens.apply([.key(.character("v"))], to: &idle)
        #expect(idle.layout.notice?.text.contains("no QR code") == true)
    }

    @Test func withoutRoomTheLinkIsShownWithoutACode() throws {
        var state = try polling()
        _ = Screens.apply([.resized(width: 80, height: 24)], to: &state)
        let text = CheckoutView.render(state).text
        #expect(!text.contains("Scan to pay"))
        #expect(text.contains("/authorize?t="))
    }

    @Test func theCartBecomesAReceiptOnceTheCustomerPaid() throws {
        var state = try polling()
        #expect(state.receipt == nil)
        let approved = Screens.request(status: .APPROVED, approved: true)
        _ = Screens.apply([.tick(Screens.start.addingTimeInterval(12)), .stateChanged(.approved(approved))], to: &state)
        let receipt = try #require(state.receipt)
        #expect(receipt.cashtag == "$SandboxShopper")
        #expect(receipt.grantIDs == ["GRG_7hx2m4q9t1c8"])
        let text = CheckoutView.render(state).text
        #expect(text.contains("Receipt · paid"))
        #expect(text.contains("Paid by $SandboxShopper"))
    }

    @Test func anAfterpayReceiptWaitsForTheCapture() throws {
        var state = try Screens.state()
        state.selectedPaymentIndex = 1
        _ = Screens.apply([.key(.character("p"))], to: &state)
        let approved = Screens.request(status: .APPROVED, approved: true, provider: "afterpay")
        _ = Screens.apply([.stateChanged(.approved(approved))], to: &state)
        #expect(state.receipt == nil)
        _ = Screens.apply([.phaseChanged(.completed(SettlementReceipt(paymentID: "100101", payer: "$SandboxShopper")))], to: &state)
        #expect(state.receipt?.paymentID == "100101")
    }

    @Test func nAddsAProductFromTheCatalog() throws {
        var state = try Screens.state()
        _ = Screens.apply([.key(.character("n"))], to: &state)
        #expect(state.layout.overlay == .addProduct(cursor: 0))
        #expect(CheckoutView.render(state).text.contains("Add to cart"))
        _ = Screens.apply([.key(.down), .key(.down), .key(.down), .key(.enter)], to: &state)
        #expect(state.layout.overlay == nil)
        #expect(state.cart.items.map(\.sku) == ["BEAN-HOUSE-12", "MUG-ENAMEL", "KETTLE-GOOSE"])
        #expect(state.layout.cartCursor == 2)
        // Adding what is already there raises its quantity.
        _ = Screens.apply([.key(.character("n")), .key(.enter)], to: &state)
        #expect(state.cart.items.first?.quantity == 3)
    }

    @Test func nIsRefusedWhileTheCustomerIsPaying() throws {
        var state = try polling()
        _ = Screens.apply([.key(.character("n"))], to: &state)
        #expect(state.layout.overlay == nil)
        #expect(state.layout.notice?.text.contains("locked") == true)
    }

    @Test func aScenarioSetsTheCartAmountReferenceAndMetadata() throws {
        let catalog = try Catalog.bundled()
        var scenario = Scenario(name: "risk")
        scenario.cart = [.sku("KETTLE-GOOSE", quantity: 2)]
        scenario.shipping = "overnight"
        scenario.amount = Money(minorUnits: 7773, currency: .usd)
        scenario.referenceID = "order-9"
        scenario.metadata = ["channel": "terminal"]
        var state = try Screens.state()
        try scenario.load(into: &state, catalog: catalog)
        #expect(state.cart.items.map(\.quantity) == [2])
        #expect(state.cart.selectedShippingID == "overnight")
        #expect(CheckoutView.render(state).text.contains("TerminalCheckout · Driftwood Coffee Co. · risk"))

        // The scenario's customer acts at once, so the first retrieval waits for them; then the payment.
        let commands = Screens.apply([.key(.character("p"))], to: &state)
        #expect(commands.first == .session(.retrieveAfterCustomerActs))
        guard case .session(.pay(let order, _))? = commands.dropFirst().first else {
            Issue.record("expected a payment, got \(commands)")
            return
        }
        let draft = PaymentAttempt(provider: "cashapp", amount: order.amount, reference: order.reference)
        let params = CashAppAdapter.createParams(draft, order: order, brandID: "BRAND_x")
        #expect(params.actions.first?.amount == 7773)
        #expect(params.referenceID == "order-9")
        #expect(params.metadata?["channel"] == "terminal")
        #expect(params.metadata?["cart_items"] == "2")
    }

    @Test func anAfterpayScenarioSendsItsReferenceAndMetadata() throws {
        var scenario = Scenario(name: "afterpay")
        scenario.provider = "afterpay"
        scenario.referenceID = "ap-7"
        scenario.metadata = ["ticket": "SUP-42"]
        var state = try Screens.state()
        try scenario.load(into: &state, catalog: try Catalog.bundled())
        let commands = Screens.apply([.key(.character("p"))], to: &state)
        guard case .session(.pay(let order, let provider))? = commands.last else {
            Issue.record("expected a payment, got \(commands)")
            return
        }
        #expect(provider.id == "afterpay")
        #expect(AfterpayCheckoutRequest.forOrder(order, reference: order.reference ?? "").merchantReference == "ap-7")
        #expect(order.metadata["ticket"] == "SUP-42")
        #expect(order.metadata["cart_items"] == "3")
    }

    @Test func aScenarioCustomerActsOncePerRequest() throws {
        var state = try Screens.state()
        var scenario = Scenario(name: "slow customer")
        scenario.customer = .approveAfter(seconds: 4)
        try scenario.load(into: &state, catalog: try Catalog.bundled())
        let commands = Screens.apply(Screens.polling, to: &state)
        #expect(commands.contains(.wait(.customerActs(.approve, attemptID: Screens.requestID), seconds: 4)))
        #expect(state.layout.notice?.text == "Scenario: the customer will approve in 4 s.")
        // Polling again (after a refresh) does not act twice.
        let again = Screens.apply([.stateChanged(.refreshing(Screens.request())), .stateChanged(.polling(Screens.request()))], to: &state)
        #expect(!again.contains { if case .session(.actAsCustomer) = $0 { true } else if case .session(.wait(.customerActs, _)) = $0 { true } else { false } })
    }

    @Test func aRecordedScreenSessionBecomesAScenario() throws {
        var state = try Screens.state()
        _ = Screens.apply([.key(.character("+")), .key(.character("p"))], to: &state)
        _ = Screens.apply(Array(Screens.polling.dropFirst()), to: &state)
        _ = Screens.apply([.tick(Screens.start.addingTimeInterval(13.34)), .key(.character("x"))], to: &state)
        var session = SessionOptions()
        session.requestLifetimeSeconds = 20
        let scenario = Scenario.recorded(from: state, session: session)
        #expect(scenario.cart == [.sku("BEAN-HOUSE-12", quantity: 3), .sku("MUG-ENAMEL", quantity: 1)])
        #expect(scenario.customer == .decline)
        #expect(scenario.sandbox?.requestLifetimeSeconds == 20)
        #expect(scenario.provider == "cashapp")
    }
}
