import PaymentFlow
import TerminalUI

/// Keys while a provider's prompt is up (Square's tip screen, reader, delayed capture): the
/// cursor moves through its choices, its action keys answer, Esc walks away when it may.
/// Other keys (help, quit, the log) fall through.
enum PromptKeys {
    static func handle(_ state: inout AppState, _ prompt: CustomerPrompt, _ key: Key) -> [AppCommand]? {
        if let step = key.cursorStep, !prompt.choices.isEmpty {
            state.layout.promptCursor = clampedCursor(state.layout.promptCursor, by: step, count: prompt.choices.count)
            return []
        }
        if key == .escape {
            guard prompt.abandonable else {
                state.warn("Decide first: " + prompt.actions.map { "\($0.key) \($0.label)" }.joined(separator: ", ") + ".")
                return []
            }
            state.prompt = nil
            state.inform("Abandoned at the \(prompt.id); press p to pay again.")
            return [.reset]
        }
        guard let action = prompt.actions.first(where: { matches($0, key) }) else { return nil }
        let choice = prompt.choices.indices.contains(state.layout.promptCursor) ? prompt.choices[state.layout.promptCursor].id : nil
        let answer = PromptAnswer(action: action.id, choice: prompt.choices.isEmpty ? nil : choice)
        // A scenario written from this screen replays the same answers.
        state.recording.paidScenario?.options.merge(answer.options(for: prompt)) { _, new in new }
        state.prompt = nil
        return [.answerPrompt(answer, promptID: prompt.id)]
    }

    private static func matches(_ action: PromptAction, _ key: Key) -> Bool {
        if action.key == "Enter" { return key == .enter }
        guard case .character(let character) = key else { return false }
        return String(character).lowercased() == action.key.lowercased()
    }
}
