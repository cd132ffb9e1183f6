import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire
import TerminalUI
import Testing

/// Square's merchant-drawn prompt (`--prompt custom`) at 100×30 and 80×24: the reader connected
/// with every card input method, the reader on a low battery (contactless only) with keyed entry
/// removed, and a delayed payment still cancelable through the handle.
@Suite struct SquareCustomPromptGoldenTests {
    private func check(_ name: String, styles: Bool = false, _ make: (Int, Int) throws -> AppState) throws {
        for (width, height) in GoldenScreenTests.sizes {
            let screen = CheckoutView.render(try make(width, height))
            try Golden.compare(screen.text, file: "\(name)-\(width)x\(height).txt")
            if styles { try Golden.compare(screen.styleMap, file: "\(name)-\(width)x\(height).style") }
        }
    }

    private func paying(_ width: Int, _ height: Int) throws -> AppState {
        var state = try Screens.state(width: width, height: height)
        let row = ProviderRegistry.builtIn.ids.firstIndex(of: "square") ?? 0
        let keys = ([.tab, .tab] + [Key](repeating: .down, count: row) + [.enter]).map { AppMessage.key($0) }
        _ = Screens.apply(keys + [.key(.character("p"))], to: &state)
        return state
    }

    private static let amount = Money(minorUnits: 4505, currency: .usd)

    @Test func theMerchantDrawnPromptWithTheReaderConnected() throws {
        try check("square-custom-prompt", styles: true) { width, height in
            var state = try paying(width, height)
            let prompt = SquareAdapter.customPrompt(total: Self.amount, reader: SquareReader(), keyedEntryAllowed: true)
            _ = Screens.apply([.phaseChanged(.step("reader")), .promptChanged(prompt)], to: &state)
            return state
        }
    }

    @Test func theMerchantDrawnPromptOnALowBatteryWithoutKeyedEntry() throws {
        try check("square-custom-prompt-low-battery") { width, height in
            var state = try paying(width, height)
            let prompt = SquareAdapter.customPrompt(total: Self.amount, reader: SquareReader(batteryLow: true), keyedEntryAllowed: false)
            _ = Screens.apply([.phaseChanged(.step("reader")), .promptChanged(prompt), .key(.down)], to: &state)
            return state
        }
    }

    @Test func theMerchantDrawnPromptWithTheReaderDisconnected() throws {
        try check("square-custom-prompt-disconnected") { width, height in
            var state = try paying(width, height)
            let prompt = SquareAdapter.customPrompt(total: Self.amount, reader: SquareReader(connected: false), keyedEntryAllowed: true)
            _ = Screens.apply([.phaseChanged(.step("reader")), .promptChanged(prompt)], to: &state)
            return state
        }
    }

    @Test func aDelayedPaymentIsCancelableThroughTheHandle() throws {
        try check("square-custom-authorized") { width, height in
            var state = try paying(width, height)
            let attempt = PaymentAttempt(
                provider: "square", id: "Aq9gJCspQgVlCjawehibsl0rh", status: .approved, amount: Money(minorUnits: 4505, currency: .usd),
                reference: "tc-0a1b2c3d", grants: ["Aq9gJCspQgVlCjawehibsl0rh"])
            let payment = SquarePayment(
                id: "Aq9gJCspQgVlCjawehibsl0rh", status: "APPROVED", amountMoney: SquareMoney(amount: 4505, currency: "USD"),
                totalMoney: SquareMoney(amount: 4505, currency: "USD"), delayAction: "CANCEL", delayedUntil: "2027-01-15T08:10:30.000Z",
                cardDetails: SquareCardDetails(status: "AUTHORIZED", card: SquareCard(cardBrand: "VISA", last4: "1111"), entryMethod: "CONTACTLESS"))
            _ = Screens.apply([
                .promptChanged(nil), .stateChanged(.creatingRequest(PaymentAttempt(provider: "square", amount: attempt.amount))),
                .exchange(Screens.exchange(1, "POST", "/v2/payments", status: 200, milliseconds: 12)), .stateChanged(.approved(attempt)),
                .phaseChanged(.step("authorized")), .promptChanged(SquareAdapter.customAuthorizedPrompt(payment)),
                .tick(Screens.start.addingTimeInterval(42)),
            ], to: &state)
            return state
        }
    }
}
