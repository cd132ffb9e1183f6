import Foundation
import PaymentFlow
import TerminalUI

/// One choice or one field of a prompt, drawn within its row of the box.
extension PromptRows {
    /// What a choice shows on the right (its mark in place of its detail) and how.
    func detail(of choice: PromptChoice) -> (text: String, style: Style) {
        switch choice.mark {
        case .busy?:
            // Moves as the screen redraws (every loop turn ticks `now`).
            let frame = Int((now.timeIntervalSinceReferenceDate * 10).rounded(.down)) % Theme.spinner.count
            return (String(Theme.spinner[(frame + Theme.spinner.count) % Theme.spinner.count]), Theme.key)
        case .error(let message)?: return (TerminalText.escapingControls(message), Theme.warning)
        case .ok(let message)?: return ("✓ " + TerminalText.escapingControls(message), Theme.banner(.success))
        case nil: return (TerminalText.escapingControls(choice.detail), choice.emphasis ? Theme.total : Theme.dim)
        }
    }

    func drawChoice(_ choice: PromptChoice, at index: Int, _ screen: inout Screen, _ area: Rect, _ y: Int) {
        let chosen = prompt.fields.isEmpty && index == cursor && choice.selectable
        let base: Style = chosen ? Theme.cursor : .plain
        let style = choice.emphasis ? base.with { $0.bold = true } : base
        screen.fill(Rect(x: area.x, y: y, width: area.width, height: 1), with: Cell(" ", style: style))
        let label = TerminalText.escapingControls(choice.label)
        var (text, detailStyle) = detail(of: choice)
        // A long detail (a provider's error) leaves the label at least half the row.
        let room = max(0, area.width - 3 - min(label.count + 1, area.width / 2))
        if text.count > room { text = room > 0 ? String(text.prefix(room - 1)) + "…" : "" }
        if chosen { detailStyle = choice.mark == nil && !choice.emphasis ? style : detailStyle.with { $0.reverse = true } }
        let detailX = area.maxX - 1 - text.count
        screen.put((chosen ? "›" : " ") + label, x: area.x, y: y, style: style, maxWidth: max(0, detailX - area.x - 1))
        screen.put(text, x: detailX, y: y, style: detailStyle, maxWidth: text.count)
    }

    /// `Label  value▏  2 letters`: the focused field highlighted, secrets as dots.
    func drawField(_ field: PromptField, at index: Int, _ screen: inout Screen, _ area: Rect, _ y: Int) {
        let focused = index == self.field
        let style: Style = focused ? Theme.cursor : .plain
        screen.fill(Rect(x: area.x, y: y, width: area.width, height: 1), with: Cell(" ", style: style))
        let labelWidth = min(prompt.fields.map { TerminalText.escapingControls($0.label).count }.max() ?? 0, area.width / 3)
        let label = TerminalText.escapingControls(field.label)
        let padded = label.count < labelWidth ? label + String(repeating: " ", count: labelWidth - label.count) : label
        var x = screen.put((focused ? "›" : " ") + padded, x: area.x, y: y, style: style, maxWidth: labelWidth + 1) + 2
        var right = area.maxX - 1
        if let allowed = field.allowed.map({ TerminalText.escapingControls($0) }), allowed.count + 2 <= right - x - 8 {
            right = screen.putRight(allowed, right: right, y: y, style: focused ? Theme.cursor.with { $0.dim = true } : Theme.dim) - 2
        }
        let raw = values[field.id] ?? field.value
        var value = field.secret ? String(repeating: "•", count: raw.count) : TerminalText.escapingControls(raw)
        // Typing goes on at the end, so a long value shows its end.
        let room = max(0, right - x - 1)
        if value.count > room { value = room > 0 ? "…" + String(value.suffix(room - 1)) : "" }
        x = screen.put(value, x: x, y: y, style: style.with { $0.bold = true }, maxWidth: room)
        if focused, x < right { screen.put("▏", x: x, y: y, style: style) }
    }
}
