@testable import CheckoutApp
import Foundation
import PaymentFlow
import Synchronization
import TerminalUI
import Testing

/// The prompt features a wallet's sheet stands on: rows the cursor skips, a form to type into,
/// a prompt replaced while it is open, and how all of it is drawn at 80×24 and 100×30.
@Suite struct PromptFeaturesTests {
    // MARK: The cursor

    @Test func theCursorSkipsRowsItCannotRestOn() throws {
        var state = try Screens.state()
        _ = Screens.apply([.promptChanged(PromptSamples.summaryFirst)], to: &state)
        #expect(state.layout.promptCursor == 1, "the subtotal above is not selectable")
        _ = Screens.apply([.key(.down)], to: &state)
        #expect(state.layout.promptCursor == 3, "the tax line between is skipped")
        _ = Screens.apply([.key(.down), .key(.down)], to: &state)
        #expect(state.layout.promptCursor == 3, "the total below cannot be chosen")
        _ = Screens.apply([.key(.up), .key(.up)], to: &state)
        #expect(state.layout.promptCursor == 1)
        let commands = Screens.apply([.key(.enter)], to: &state)
        #expect(commands == [.answerPrompt(PromptAnswer(action: "pay", choice: "visa"), promptID: "sheet")])
    }

    @Test func thePromptSaysWhereTheCursorStarts() throws {
        var state = try Screens.state()
        var prompt = PromptSamples.summaryFirst
        prompt.cursor = 3
        _ = Screens.apply([.promptChanged(prompt)], to: &state)
        #expect(state.layout.promptCursor == 3)
        prompt.id = "other"
        prompt.cursor = 4
        _ = Screens.apply([.promptChanged(prompt)], to: &state)
        #expect(state.layout.promptCursor == 3, "the total cannot hold the cursor: the nearest choice that can")
    }

    @Test func anActionLetterStillWinsOverKAsUp() throws {
        var state = try Screens.state()
        let prompt = CustomerPrompt(
            id: "reader", title: "Reader", choices: [PromptChoice(id: "a", label: "A"), PromptChoice(id: "b", label: "B")],
            actions: [PromptAction(key: "k", label: "key in", id: "keyed")])
        _ = Screens.apply([.promptChanged(prompt), .key(.character("j"))], to: &state)
        #expect(state.layout.promptCursor == 1)
        #expect(Screens.apply([.key(.character("k"))], to: &state) == [.answerPrompt(PromptAnswer(action: "keyed", choice: "b"), promptID: "reader")])
    }

    // MARK: Fields

    @Test func typingFillsTheFocusedFieldAndEnterAnswersWithEveryValue() throws {
        var state = try Screens.state()
        _ = Screens.apply([.promptChanged(PromptSamples.address)], to: &state)
        #expect(state.layout.promptField == 0)
        _ = Screens.apply(PromptSamples.keys("ADA L") + [.key(.backspace), .key(.backspace), .key(.tab)] + PromptSamples.keys("12 Hope St"), to: &state)
        _ = Screens.apply([.key(.down), .key(.down), .key(.up)] + PromptSamples.keys("ny"), to: &state)
        #expect(state.layout.promptField == 2)
        _ = Screens.apply([.key(.backTab), .key(.backTab), .key(.backTab)], to: &state)
        #expect(state.layout.promptField == 4, "Shift-Tab from the first field goes round to the last")
        let commands = Screens.apply([.key(.enter)], to: &state)
        let fields = ["name": "ADA", "street": "12 Hope St", "state": "ny", "zip": "11201", "card": "4111"]
        #expect(commands == [.answerPrompt(PromptAnswer(action: "save", fields: fields), promptID: "address")])
        #expect(state.prompt == nil)
    }

    @Test func actionLettersTypeWhileThePromptHasFields() throws {
        var state = try Screens.state()
        _ = Screens.apply([.promptChanged(PromptSamples.address)], to: &state)
        let commands = Screens.apply(PromptSamples.keys("xq?lp"), to: &state)
        #expect(commands.isEmpty)
        #expect(state.layout.promptValues["name"] == "xq?lp")
        #expect(!state.quitRequested && state.layout.overlay == nil && state.layout.logVisible)
        #expect(PromptView.hints(PromptSamples.address).map(\.0) == ["Tab", "Enter", "Esc"])
        #expect(PromptView.hints(PromptSamples.address).map(\.1) == ["next field", "save", "abandon"])
    }

    @Test func aFieldHoldsAtMostEightyCharacters() throws {
        var state = try Screens.state()
        _ = Screens.apply([.promptChanged(PromptSamples.address)] + PromptSamples.keys(String(repeating: "a", count: 90)), to: &state)
        #expect(state.layout.promptValues["name"]?.count == PromptKeys.fieldLimit)
    }

    // MARK: Replacing a prompt

    @Test func replacingAPromptKeepsItsAskerWaiting() async throws {
        let desk = CustomerDesk()
        #expect(await desk.replace(PromptSamples.summaryFirst) == false, "nothing waits")
        let seen = Seen()
        let stop = await desk.subscribe { seen.append($0) }
        let asker = Task { await desk.ask(PromptSamples.summaryFirst) }
        while await desk.current == nil { await Task.yield() }
        var rated = PromptSamples.summaryFirst
        rated.choices[3].detail = "$5.40"
        #expect(await desk.replace(rated))
        #expect(await desk.current == rated)
        #expect(await desk.answer(PromptAnswer(action: "pay", choice: "usps"), to: "sheet"))
        #expect(await asker.value == PromptAnswer(action: "pay", choice: "usps"))
        await stop()
        #expect(seen.prompts == [PromptSamples.summaryFirst, rated, nil])
    }

    @Test func aReplacedPromptKeepsTheCursorOnItsChoiceAndWhatWasTyped() throws {
        var state = try Screens.state()
        var prompt = PromptSamples.summaryFirst
        prompt.fields = [PromptField(id: "zip", label: "ZIP", value: "11201"), PromptField(id: "note", label: "Note")]
        _ = Screens.apply([.promptChanged(prompt), .key(.backspace)] + PromptSamples.keys("2") + [.key(.tab)] + PromptSamples.keys("ring"), to: &state)
        state.layout.promptCursor = 3
        var rated = prompt
        rated.choices.insert(PromptChoice(id: "ups", label: "UPS", mark: .busy), at: 2)
        rated.fields[1].value = "leave at door"
        _ = Screens.apply([.promptChanged(rated)], to: &state)
        #expect(rated.choices[state.layout.promptCursor].id == "usps")
        #expect(state.layout.promptValues == ["zip": "11202", "note": "leave at door"], "the provider changed the note")
        #expect(state.layout.promptField == 1)
        rated.choices.remove(at: 4)
        _ = Screens.apply([.promptChanged(rated)], to: &state)
        #expect(rated.choices[state.layout.promptCursor].id == "ups", "usps went: the nearest selectable row")
        rated.id = "next"
        _ = Screens.apply([.promptChanged(rated)], to: &state)
        #expect(state.layout.promptCursor == 1 && state.layout.promptField == 0, "a new prompt starts on its first selectable choice")
        #expect(state.layout.promptValues == ["zip": "11201", "note": "leave at door"])
    }

    @Test func aScenarioCustomerAnswersOnceTheRatesHaveCome() throws {
        var state = try Screens.state()
        state.recording.scenario = Scenario(name: "wallet")
        var loading = PromptSamples.summaryFirst
        loading.scripted = ["approve": PromptAnswer(action: "pay", choice: "usps")]
        var rated = loading
        rated.choices[3].mark = nil
        let answer = AppCommand.wait(.customerAnswers(PromptAnswer(action: "pay", choice: "usps"), promptID: "sheet"), seconds: 1)
        #expect(Screens.apply([.promptChanged(loading)], to: &state).isEmpty, "a rate is still loading")
        #expect(Screens.apply([.promptChanged(rated)], to: &state) == [answer])
        #expect(Screens.apply([.promptChanged(rated)], to: &state).isEmpty, "answered once")
    }

    // MARK: Drawing

    @Test func theSheetScrollsAt80x24AndShowsWhole100x30() throws {
        for (width, height) in GoldenScreenTests.sizes {
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply([.promptChanged(PromptSamples.sheet)] + [AppMessage](repeating: .key(.down), count: 12), to: &state)
            let screen = CheckoutView.render(state)
            try Golden.compare(screen.text, file: "prompt-sheet-\(width)x\(height).txt")
            try Golden.compare(screen.styleMap, file: "prompt-sheet-\(width)x\(height).style")
            #expect(screen.text.contains("PAY DRIFTWOOD COFFEE CO.") == (height == 30))
            #expect(screen.text.contains("more") == (height == 24))
            #expect(Self.drawsInsideItsBox(state))
        }
    }

    @Test func theAddressFormAt80x24() throws {
        var state = try Screens.state(width: 80, height: 24)
        _ = Screens.apply([.promptChanged(PromptSamples.address)] + PromptSamples.keys("Ada Lovelace") + [.key(.tab)]
            + PromptSamples.keys("12 Hope St") + [.key(.tab)] + PromptSamples.keys("N"), to: &state)
        let screen = CheckoutView.render(state)
        try Golden.compare(screen.text, file: "prompt-form-80x24.txt")
        try Golden.compare(screen.styleMap, file: "prompt-form-80x24.style")
        #expect(!screen.text.contains("4111"), "a secret field shows dots")
        #expect(Self.drawsInsideItsBox(state))
    }

    @Test func theSpinnerMovesAsTheScreenTicks() throws {
        var state = try Screens.state(width: 80, height: 24)
        _ = Screens.apply([.promptChanged(PromptSamples.sheet)], to: &state)
        let busy = PromptSamples.sheet.choices[7]
        var frames: [String] = []
        for offset in [0.05, 0.15, 0.25] {
            _ = Screens.apply([.tick(Screens.start.addingTimeInterval(offset))], to: &state)
            frames.append(PromptRows(PromptSamples.sheet, state: state).detail(of: busy).text)
            #expect(CheckoutView.render(state).text.contains(frames.last!))
        }
        #expect(Set(frames).count == 3)
    }

    @Test func longProviderTextStaysInsideTheBox() throws {
        var state = try Screens.state(width: 80, height: 24)
        let long = String(repeating: "wide\u{1B}[2J ", count: 20)
        let prompt = CustomerPrompt(
            id: "long", title: long, lines: [long],
            choices: [PromptChoice(id: "a", label: long, detail: long, heading: long), PromptChoice(id: "b", label: "B", mark: .error(long))],
            actions: [PromptAction(key: "Enter", label: long, id: "go")],
            fields: [PromptField(id: "f", label: long, value: long, allowed: long)])
        _ = Screens.apply([.promptChanged(prompt)], to: &state)
        #expect(Self.drawsInsideItsBox(state))
        #expect(!CheckoutView.render(state).text.contains("\u{1B}"))
    }

    /// Every cell the prompt changed lies within one box drawn with its corners.
    static func drawsInsideItsBox(_ state: AppState) -> Bool {
        var without = state
        without.prompt = nil
        let (with, under) = (CheckoutView.render(state), CheckoutView.render(without))
        // The hints line below changes too: it is not the box's.
        let changed = (0..<with.height - 1).flatMap { y in (0..<with.width).filter { with[$0, y] != under[$0, y] }.map { ($0, y) } }
        guard let minX = changed.map(\.0).min(), let maxX = changed.map(\.0).max(), let minY = changed.map(\.1).min(), let maxY = changed.map(\.1).max()
        else { return false }
        return with[minX, minY].character == "┌" && with[maxX, maxY].character == "┘" && with[maxX, minY].character == "┐"
            && with[minX, maxY].character == "└"
    }
}

/// What a desk's listener was told, in order.
private final class Seen: Sendable {
    private let list = Mutex<[CustomerPrompt?]>([])
    func append(_ prompt: CustomerPrompt?) { list.withLock { $0.append(prompt) } }
    var prompts: [CustomerPrompt?] { list.withLock { $0 } }
}
