import PaymentFlow

/// The cursor and the typing of the prompt shown, as prompts come, change and go.
extension AppState {
    /// Shows `next` (nil: the prompt went). The same id as the prompt shown is that prompt
    /// changed in place (rates came in): the cursor stays on its choice and what was typed stays,
    /// unless the provider changed that field. Returns true for such a change.
    @discardableResult
    mutating func receivePrompt(_ next: CustomerPrompt?) -> Bool {
        defer { prompt = next }
        guard let next else {
            (layout.promptCursor, layout.promptField, layout.promptValues) = (0, 0, [:])
            return false
        }
        guard let shown = prompt, shown.id == next.id else {
            layout.promptCursor = next.nearestSelectable(to: next.cursor ?? 0) ?? 0
            layout.promptField = 0
            layout.promptValues = Dictionary(next.fields.map { ($0.id, $0.value) }) { first, _ in first }
            return false
        }
        let choiceID = shown.choices.indices.contains(layout.promptCursor) ? shown.choices[layout.promptCursor].id : nil
        let kept = next.choices.firstIndex { $0.id == choiceID } ?? layout.promptCursor
        layout.promptCursor = next.nearestSelectable(to: kept) ?? 0
        let fieldID = shown.fields.indices.contains(layout.promptField) ? shown.fields[layout.promptField].id : nil
        layout.promptField = next.fields.firstIndex { $0.id == fieldID } ?? max(0, min(layout.promptField, next.fields.count - 1))
        var values: [String: String] = [:]
        for field in next.fields {
            let before = shown.fields.first { $0.id == field.id }
            // The provider's new value wins over the typing only when the provider changed it.
            values[field.id] = before?.value == field.value ? layout.promptValues[field.id] ?? field.value : field.value
        }
        layout.promptValues = values
        return true
    }
}

extension CustomerPrompt {
    /// The selectable choice nearest `index` (below it first on a tie); nil when none is.
    func nearestSelectable(to index: Int) -> Int? {
        guard !choices.isEmpty else { return nil }
        let start = max(0, min(index, choices.count - 1))
        for distance in 0..<choices.count {
            for candidate in [start + distance, start - distance] where choices.indices.contains(candidate) && choices[candidate].selectable {
                return candidate
            }
        }
        return nil
    }

    /// The next selectable choice from `index` in `step`'s direction; `index` at the end.
    func selectable(from index: Int, by step: Int) -> Int {
        var candidate = index + step
        while choices.indices.contains(candidate) {
            if choices[candidate].selectable { return candidate }
            candidate += step
        }
        return index
    }

    /// The choice under `cursor`, if the cursor may rest there.
    func choice(at cursor: Int) -> PromptChoice? {
        choices.indices.contains(cursor) && choices[cursor].selectable ? choices[cursor] : nil
    }

    /// What each field holds: what was typed, else the prompt's value.
    func fieldValues(_ typed: [String: String]) -> [String: String] {
        Dictionary(fields.map { ($0.id, typed[$0.id] ?? $0.value) }) { first, _ in first }
    }
}
