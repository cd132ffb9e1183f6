@testable import CheckoutApp
import CheckoutModel
import Foundation
@testable import PaymentFlow
import ProviderWire
import TerminalUI
import Testing

/// A scenario written from the screen replays what was done at Square's prompts: every card
/// presented in one sale (`card: gift,ok`), and a tip added after authorization before completing
/// (`then: tip:676,complete`); keys that only change a prompt record nothing.
@Suite struct SquareRecordedScenarioTests {
    private let total = Money(minorUnits: 4505, currency: .usd)

    private func paying() throws -> AppState {
        var state = try Screens.state(width: 100, height: 30)
        let row = ProviderRegistry.builtIn.ids.firstIndex(of: "square") ?? 0
        _ = Screens.apply(([.tab, .tab] + [Key](repeating: .down, count: row) + [.enter, .character("p")]).map { AppMessage.key($0) }, to: &state)
        return state
    }

    /// Shows `prompt`, moves its cursor to the choice `choice` (when given) and presses `key`.
    private func answer(_ prompt: CustomerPrompt, choice: String? = nil, key: Character, in state: inout AppState) {
        answer(prompt, choice: choice, pressing: .character(key), in: &state)
    }

    private func answer(_ prompt: CustomerPrompt, choice: String? = nil, pressing key: Key, in state: inout AppState) {
        _ = Screens.apply([.promptChanged(prompt)], to: &state)
        if let choice, let index = prompt.choices.firstIndex(where: { $0.id == choice }) {
            _ = Screens.apply([AppMessage](repeating: .key(.down), count: index), to: &state)
        }
        _ = Screens.apply([.key(key)], to: &state)
    }

    @Test func aSplitTenderWithATipRecordsEveryCardAndTheTip() throws {
        var state = try paying()
        answer(SquarePrompts.reader(total: total, keyedEntryAllowed: true, giftCard: true), choice: "gift", key: "t", in: &state)
        answer(SquareAdapter.remainderPrompt(Money(minorUnits: 3505, currency: .usd), paid: Money(minorUnits: 1000, currency: .usd), keyedEntryAllowed: true),
               choice: "declined", key: "t", in: &state)
        answer(SquareAdapter.readerPrompt(total: Money(minorUnits: 3505, currency: .usd), keyedEntryAllowed: true), choice: "ok", key: "t", in: &state)
        let authorized = SquareAdapter.authorizedPrompt(SquarePayment(id: "P1", status: "APPROVED", amountMoney: SquareMoney(amount: 4505, currency: "USD")))
        answer(authorized, key: "t", in: &state)
        answer(SquareAdapter.addTipPrompt(amount: total, current: Money(minorUnits: 0, currency: .usd)), choice: "676", pressing: .enter, in: &state)
        answer(authorized, key: "c", in: &state)
        let options = try #require(state.recording.paidScenario?.options)
        #expect(options["card"] == "gift,declined,ok")
        #expect(options["entry"] == "tap")
        #expect(options["then"] == "tip:676,complete")
        #expect(SquarePaymentSettings.parseThen(options["then"] ?? "")?.tip == 676)
        #expect(SquarePaymentSettings.parseCards(options["card"] ?? "")?.count == 3)
    }

    @Test func aLaterCheckoutStartsItsOwnLists() throws {
        var state = try paying()
        answer(SquareAdapter.readerPrompt(total: total, keyedEntryAllowed: true), choice: "declined", key: "t", in: &state)
        // r: a new checkout; its first card replaces the list rather than adding to it.
        _ = Screens.apply([.stateChanged(.declined(PaymentAttempt(provider: "square", amount: total))), .promptChanged(nil), .key(.character("r")), .stateChanged(.notStarted), .key(.character("p"))], to: &state)
        answer(SquareAdapter.readerPrompt(total: total, keyedEntryAllowed: true), choice: "ok", key: "t", in: &state)
        #expect(state.recording.paidScenario?.options["card"] == "ok", "\(state.checkout.state.name)")
    }

    @Test func theCustomPromptsReaderKeysRecordNothing() throws {
        var state = try paying()
        answer(SquareAdapter.customPrompt(total: total, reader: SquareReader(), keyedEntryAllowed: true), choice: "ok", key: "r", in: &state)
        answer(SquareAdapter.customPrompt(total: total, reader: SquareReader(connected: false), keyedEntryAllowed: true), key: "r", in: &state)
        answer(SquareAdapter.customPrompt(total: total, reader: SquareReader(), keyedEntryAllowed: true), choice: "ok", key: "t", in: &state)
        #expect(state.recording.paidScenario?.options["card"] == "ok")
    }
}
