@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import TerminalUI
import Testing

/// The payment pane's saved methods and store toggle (Adyen's stored Cash App Pay): what the
/// keys do, what a payment carries, and what a token webhook changes.
@Suite struct SavedMethodsScreenTests {
    let adyenRow = ProviderRegistry.builtIn.ids.firstIndex(of: "adyen") ?? 0
    let saved = SavedPaymentMethod(provider: "adyen", id: "TNK1RX9GR6Y8S8Y2", label: "$SandboxShopper", options: ["stored-payment-method": "TNK1RX9GR6Y8S8Y2"])

    private func keys(_ keys: [Key]) -> [AppMessage] { keys.map { .key($0) } }

    /// The screen with Adyen chosen and one saved method listed.
    private func adyenChosen() throws -> (AppState, [AppCommand]) {
        var state = try Screens.state(width: 80, height: 24)
        let commands = Screens.apply(keys([.tab, .tab] + [Key](repeating: .down, count: adyenRow) + [.enter]), to: &state)
        _ = Screens.apply([.savedMethodsLoaded(provider: "adyen", [saved], reason: nil)], to: &state)
        return (state, commands)
    }

    @Test func choosingAdyenListsItsSavedMethodsBeneathItWithTheStoreToggle() throws {
        var (state, commands) = try adyenChosen()
        #expect(commands == [.loadSavedMethods(provider: "adyen", reason: nil)])
        #expect(state.paymentRows.drop { $0 != .method(adyenRow) }.prefix(3) == [.method(adyenRow), .toggle(adyenRow), .saved(saved)])
        let pane = CheckoutView.render(state).text
        #expect(pane.contains("Payment · 1 saved"))
        #expect(pane.contains("[ ] store for next time (s)"))
        // At 80×24 the pane scrolls to the saved method when the cursor reaches it.
        _ = Screens.apply(keys([.down, .down]), to: &state)
        let scrolled = CheckoutView.render(state).text
        #expect(scrolled.contains("( ) $SandboxShopper · saved"))
        #expect(scrolled.contains("d delete saved"))
    }

    @Test func theToggleMakesThePaymentStoreTheMethod() throws {
        var (state, _) = try adyenChosen()
        _ = Screens.apply(keys([.character("s")]), to: &state)
        guard case .session(.pay(let order, let plan))? = Screens.apply(keys([.character("p")]), to: &state).first else {
            Issue.record("p did not pay")
            return
        }
        #expect(plan.id == "adyen")
        #expect(order.providerOptions == ["store": "true"])
        #expect(state.recording.paidScenario?.options == ["store": "true"], "the transcript's scenario reproduces it")
    }

    @Test func aChosenSavedMethodPaysWithItAndTurnsTheToggleOff() throws {
        var (state, _) = try adyenChosen()
        _ = Screens.apply(keys([.character("s"), .down, .down, .enter]), to: &state)
        #expect(state.selectedSavedMethod == saved)
        #expect(state.togglesOn.isEmpty)
        guard case .session(.pay(let order, _))? = Screens.apply(keys([.character("p")]), to: &state).first else {
            Issue.record("p did not pay")
            return
        }
        #expect(order.providerOptions == ["stored-payment-method": "TNK1RX9GR6Y8S8Y2"])
    }

    @Test func dDeletesTheSavedMethodUnderTheCursor() throws {
        var (state, _) = try adyenChosen()
        #expect(Screens.apply(keys([.character("d")]), to: &state).isEmpty, "not on a saved row")
        #expect(state.layout.notice?.text.contains("Move to a saved method") == true)
        let commands = Screens.apply(keys([.down, .down, .character("d")]), to: &state)
        #expect(commands == [.deleteSavedMethod(saved)])
        _ = Screens.apply([.savedMethodDeleted(saved)], to: &state)
        #expect(state.savedMethods.isEmpty)
        #expect(state.layout.paymentCursor < state.paymentRows.count)
    }

    @Test func aTokenWebhookListsThemAnewAndSaysWhyTheChosenOneWent() throws {
        var (state, _) = try adyenChosen()
        _ = Screens.apply(keys([.down, .down, .enter]), to: &state)
        let disabled = ProviderNotice(provider: "adyen", name: "recurring.token.disabled", summary: "webhook recurring.token.disabled", verified: true)
        #expect(Screens.apply([.notice(disabled, at: Screens.start)], to: &state) == [.loadSavedMethods(provider: "adyen", reason: "recurring.token.disabled")])
        let forged = ProviderNotice(provider: "adyen", name: "recurring.token.disabled", summary: "forged", verified: false)
        #expect(Screens.apply([.notice(forged, at: Screens.start)], to: &state).isEmpty, "an unverified webhook is not acted on")
        _ = Screens.apply([.savedMethodsLoaded(provider: "adyen", [], reason: "recurring.token.disabled")], to: &state)
        #expect(state.selectedSavedMethod == nil)
        #expect(state.paymentOptions.isEmpty)
        #expect(state.layout.notice?.text.contains("$SandboxShopper is no longer saved (recurring.token.disabled)") == true)
    }

    @Test func storeOnTheCommandLineFixesAndHidesTheToggle() {
        let methods = TerminalCheckout.paymentMethods(.builtIn, options: ProviderOptionValues(["store": "true"]))
        #expect(methods.first { $0.id == "adyen" }?.toggle == nil)
        // A choice (Antom's language), and another provider's own switch (Cash App Pay's on-file), stay.
        let toggles = methods.compactMap(\.toggle)
        #expect(!toggles.contains { $0.flag == "store" })
        #expect(toggles.allSatisfy { $0.isChoice || $0.flag != "store" })
        #expect(TerminalCheckout.paymentMethods(.builtIn, options: ProviderOptionValues()).contains { $0.toggle != nil })
    }
}
