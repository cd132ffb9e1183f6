import Foundation
import PaymentFlow
import TerminalUI

/// A provider's prompt as a box over the panes: its title and lines, the choices with the
/// cursor and the fields (scrolling when they do not fit, see `PromptRows`), a countdown to its
/// deadline, and its keys.
enum PromptView {
    static func draw(_ screen: inout Screen, _ state: AppState, _ prompt: CustomerPrompt) {
        let lines = prompt.lines.map { TerminalText.escapingControls($0) }
        let title = TerminalText.escapingControls(prompt.title)
        let keys = boxKeys(prompt)
        let keysLine = keys.map { "\($0.0) \($0.1)" }.joined(separator: "   ")
        let countdown = countdownLine(prompt, now: state.now, waiting: state.checkout.provider?.waitingSentence)
        let rows = PromptRows(prompt, state: state)
        let contentWidth = ([rows.width, keysLine.count, countdown?.count ?? 0, title.count + 4] + lines.map(\.count)).max() ?? 20
        let width = min(state.layout.width - 4, contentWidth + 4)
        let fixedRows = lines.count + (countdown == nil ? 0 : 1)
        let height = min(state.layout.height - 2, fixedRows + (rows.isEmpty ? 0 : rows.count + 1) + 4)
        let rect = Rect(x: 0, y: 0, width: state.layout.width, height: state.layout.height).centered(width: width, height: height)
        screen.fill(rect)
        let inside = screen.box(rect, title: title, style: Theme.focusedBorder, titleStyle: Theme.focusedBorder)
        // The last row holds the keys; the one above it stays blank.
        var y = inside.y
        for line in lines where y < inside.maxY - 1 {
            screen.put(" " + line, x: inside.x, y: y, style: .bold, maxWidth: inside.width)
            y += 1
        }
        if let countdown, y < inside.maxY - 1 {
            screen.put(" " + countdown, x: inside.x, y: y, style: Theme.warning, maxWidth: inside.width)
            y += 1
        }
        if !rows.isEmpty {
            y += 1
            rows.draw(&screen, in: Rect(x: inside.x, y: y, width: inside.width, height: inside.maxY - 2 - y))
        }
        var x = inside.x + 1
        // Each key leaves a space before the border (the box is as wide as this row when it is the widest).
        for (key, label) in keys where x + key.count + 1 + label.count <= inside.maxX - 1 {
            x = screen.put(key, x: x, y: inside.maxY - 1, style: Theme.key)
            x = screen.put(" \(label)", x: x, y: inside.maxY - 1, style: Theme.dim)
            // The gap after it, as far as the border.
            let gap = min(3, inside.maxX - x)
            x = gap > 0 ? screen.put(String(repeating: " ", count: gap), x: x, y: inside.maxY - 1, style: Theme.dim) : x + 3
        }
    }

    /// "Delay passes in 6:58" while the deadline is ahead; then what the provider is waited for.
    static func countdownLine(_ prompt: CustomerPrompt, now: Date, waiting: String?) -> String? {
        guard let deadline = prompt.deadline else { return nil }
        let left = deadline.timeIntervalSince(now)
        return left > 0 ? "Delay passes in \(CheckoutView.clock(left.rounded(.up)))" : "The delay has passed; \(waiting ?? "waiting for the provider…")"
    }

    static func hints(_ prompt: CustomerPrompt) -> [(String, String)] {
        let esc = prompt.abandonable ? [("Esc", "abandon")] : []
        // A form takes every printable key, so neither letters nor ? help are offered.
        guard prompt.fields.isEmpty else { return boxKeys(prompt) + esc }
        return (prompt.choices.isEmpty ? [] : [("↑↓", "choose")]) + boxKeys(prompt) + esc + [("?", "help")]
    }

    /// The keys the box lists on its last line: the actions, or a form's Tab and Enter.
    private static func boxKeys(_ prompt: CustomerPrompt) -> [(String, String)] {
        let keys = prompt.actions.map { (TerminalText.escapingControls($0.key), TerminalText.escapingControls($0.label)) }
        return prompt.fields.isEmpty ? keys : [("Tab", "next field")] + keys.filter { $0.0 == "Enter" }
    }
}
