import PaymentFlow
import TerminalUI

/// Keys while a provider's prompt is up (Square's tip screen, reader, delayed capture): the
/// cursor moves through its selectable choices, its action keys answer, Esc walks away when it
/// may. A prompt with fields is a form: keys type, Tab and ↑↓ move between fields, only Enter
/// and Esc answer. Other keys (help, quit, the log) fall through.
enum PromptKeys {
    /// How much one field holds: enough for an address line, not a pasted page.
    static let fieldLimit = 80

    static func handle(_ state: inout AppState, _ prompt: CustomerPrompt, _ key: Key) -> [AppCommand]? {
        if key == .escape {
            guard prompt.abandonable else {
                // A prompt with nothing to answer shows progress: the payment is already under way.
                guard !prompt.actions.isEmpty else {
                    state.warn("\(prompt.title): the payment is under way; wait for its result.")
                    return []
                }
                state.warn("Decide first: " + prompt.actions.map { "\($0.key) \($0.label)" }.joined(separator: ", ") + ".")
                return []
            }
            state.prompt = nil
            state.inform("Abandoned at the \(prompt.id); press p to pay again.")
            return [.reset]
        }
        if !prompt.fields.isEmpty { return type(&state, prompt, key) }
        // An action's letter wins over k and j as ↑↓ (the reader's "k key in").
        let isArrow = key == .up || key == .down
        if let step = key.cursorStep, !prompt.choices.isEmpty, isArrow || !prompt.actions.contains(where: { matches($0, key) }) {
            state.layout.promptCursor = prompt.selectable(from: state.layout.promptCursor, by: step)
            return []
        }
        guard let action = prompt.actions.first(where: { matches($0, key) }) else { return nil }
        return answer(&state, prompt, action)
    }

    /// A form's keys: every printable character is typing, so letters never answer.
    private static func type(_ state: inout AppState, _ prompt: CustomerPrompt, _ key: Key) -> [AppCommand]? {
        let field = max(0, min(state.layout.promptField, prompt.fields.count - 1))
        let id = prompt.fields[field].id
        var value = state.layout.promptValues[id] ?? prompt.fields[field].value
        switch key {
        case .tab: state.layout.promptField = (field + 1) % prompt.fields.count
        case .backTab: state.layout.promptField = (field + prompt.fields.count - 1) % prompt.fields.count
        case .down: state.layout.promptField = min(field + 1, prompt.fields.count - 1)
        case .up: state.layout.promptField = max(field - 1, 0)
        case .backspace:
            if !value.isEmpty { value.removeLast() }
            state.layout.promptValues[id] = value
        case .character(let character):
            // Control characters never reach a provider; the screen would show them escaped anyway.
            guard value.count < fieldLimit, !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return []
            }
            state.layout.promptValues[id] = value + String(character)
        case .enter:
            guard let action = prompt.actions.first(where: { $0.key == "Enter" }) else { return [] }
            return answer(&state, prompt, action)
        case .control:
            // Ctrl-C still quits.
            return nil
        default:
            // The panes under the form keep still while it is filled in.
            break
        }
        return []
    }

    private static func answer(_ state: inout AppState, _ prompt: CustomerPrompt, _ action: PromptAction) -> [AppCommand] {
        let choice = prompt.choice(at: state.layout.promptCursor)?.id
        let fields = prompt.fields.isEmpty ? [:] : prompt.fieldValues(state.layout.promptValues)
        let answer = PromptAnswer(action: action.id, choice: choice, fields: fields)
        // A scenario written from this screen replays the same answers (the fields are not options).
        if var options = state.recording.paidScenario?.options {
            answer.record(into: &options, for: prompt, answered: &state.recording.promptFlagsThisCheckout)
            state.recording.paidScenario?.options = options
        }
        state.prompt = nil
        return [.answerPrompt(answer, promptID: prompt.id)]
    }

    private static func matches(_ action: PromptAction, _ key: Key) -> Bool {
        if action.key == "Enter" { return key == .enter }
        guard case .character(let character) = key else { return false }
        return String(character).lowercased() == action.key.lowercased()
    }
}

extension Key {
    /// ↑ or k: -1; ↓ or j: +1 (a prompt's list, where an action's letter may take k or j first).
    fileprivate var cursorStep: Int? {
        switch self {
        case .up, .character("k"): -1
        case .down, .character("j"): 1
        default: nil
        }
    }
}
