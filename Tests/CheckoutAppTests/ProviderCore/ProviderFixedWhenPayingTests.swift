import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import TerminalUI
import Testing

/// Defect: after an approval, choosing another method in the payment pane left the screen
/// stuck (r and p refused, no r in the hints). The provider is fixed when the user pays.
@Suite struct ProviderFixedWhenPayingTests {
    private func press(_ keys: [Key], in state: inout AppState) -> [AppCommand] {
        Screens.apply(keys.map(AppMessage.key), to: &state)
    }

    private func approvedWithCashApp() throws -> AppState {
        var state = try Screens.state()
        _ = press([.character("p")], in: &state)
        _ = Screens.apply(Screens.polling + [.stateChanged(.approved(Screens.request(status: .APPROVED, approved: true)))], to: &state)
        return state
    }

    @Test func choosingAnotherMethodAfterAnApprovalKeepsTheEndedCheckoutEnded() throws {
        var state = try approvedWithCashApp()
        #expect(state.checkout.ended)
        // Tab to the Payment pane, ↓, Enter: "Cash App Pay (Afterpay)".
        state.layout.focus = .shipping
        _ = press([.tab, .down, .enter], in: &state)
        #expect(state.selectedPaymentMethod.id == "afterpay")
        #expect(state.checkout.provider?.id == "cashapp")
        #expect(state.checkout.ended)
        #expect(state.receipt?.method == "Cash App Pay")
        let hints = CheckoutView.render(state).text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(hints.contains("r new checkout"), "\(hints)")
        #expect(press([.character("p")], in: &state).isEmpty)
        #expect(state.layout.notice?.text.contains("press r") == true)
    }

    @Test func rStartsANewCheckoutWithTheNewlyChosenMethod() throws {
        var state = try approvedWithCashApp()
        state.layout.focus = .shipping
        _ = press([.tab, .down, .enter], in: &state)
        #expect(press([.character("r")], in: &state) == [.reset])
        _ = Screens.apply([.stateChanged(.notStarted)], to: &state)
        #expect(state.checkout.provider == nil)
        guard case .session(.pay(_, let provider))? = press([.character("p")], in: &state).first else {
            Issue.record("p did not pay")
            return
        }
        #expect(provider.id == "afterpay")
        #expect(state.checkout.provider?.id == "afterpay")
    }

    @Test func theMethodCannotChangeWhileAPaymentIsInFlight() throws {
        var state = try Screens.state()
        _ = press([.character("p")], in: &state)
        _ = Screens.apply(Screens.polling, to: &state)
        _ = press([.down, .enter], in: &state)
        #expect(state.selectedPaymentMethod.id == "cashapp")
        #expect(state.layout.notice?.text.contains("fixed while a payment is in flight") == true)
    }

    @Test func aSettlingProviderPaidWithStaysInChargeOfTheEnd() throws {
        var state = try Screens.state()
        _ = press([.tab, .tab, .down, .enter, .character("p")], in: &state)
        _ = Screens.apply(Screens.pollingMessages(provider: "afterpay"), to: &state)
        _ = Screens.apply([.stateChanged(.approved(Screens.request(status: .APPROVED, approved: true, provider: "afterpay")))], to: &state)
        // Choosing plain Cash App Pay now must not end an Afterpay checkout that still captures.
        state.selectedPaymentIndex = 0
        #expect(!state.checkout.ended)
        #expect(state.receipt == nil)
        _ = Screens.apply([.phaseChanged(.completed(SettlementReceipt(paymentID: "100", payer: "$SandboxShopper")))], to: &state)
        #expect(state.checkout.ended)
        #expect(state.receipt?.method == "Cash App Pay (Afterpay)")
    }
}
