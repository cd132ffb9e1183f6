import Foundation
import PaymentFlow
import TerminalUI

/// A provider's prompt as a box over the panes: its title and lines, the choices with the
/// cursor, a countdown to its deadline, and its keys.
enum PromptView {
    static func draw(_ screen: inout Screen, _ state: AppState, _ prompt: CustomerPrompt) {
        let lines = prompt.lines.map { TerminalText.escapingControls($0) }
        let labelWidth = prompt.choices.map(\.label.count).max() ?? 0
        let detailWidth = prompt.choices.map(\.detail.count).max() ?? 0
        let keysLine = prompt.actions.map { "\($0.key) \($0.label)" }.joined(separator: "   ")
        let countdown = countdownLine(prompt, now: state.now)
        let contentWidth = ([labelWidth + detailWidth + 6, keysLine.count, countdown?.count ?? 0, prompt.title.count + 4] + lines.map(\.count)).max() ?? 20
        let width = min(state.layout.width - 4, contentWidth + 4)
        let height = min(state.layout.height - 2, lines.count + (countdown == nil ? 0 : 1) + (prompt.choices.isEmpty ? 0 : prompt.choices.count + 1) + 4)
        let rect = Rect(x: 0, y: 0, width: state.layout.width, height: state.layout.height).centered(width: width, height: height)
        screen.fill(rect)
        let inside = screen.box(rect, title: TerminalText.escapingControls(prompt.title), style: Theme.focusedBorder, titleStyle: Theme.focusedBorder)
        var y = inside.y
        for line in lines where y < inside.maxY {
            screen.put(" " + line, x: inside.x, y: y, style: .bold, maxWidth: inside.width)
            y += 1
        }
        if let countdown, y < inside.maxY {
            screen.put(" " + countdown, x: inside.x, y: y, style: Theme.warning, maxWidth: inside.width)
            y += 1
        }
        if !prompt.choices.isEmpty, y < inside.maxY { y += 1 }
        for (index, choice) in prompt.choices.enumerated() where y < inside.maxY - 1 {
            let style: Style = index == state.layout.promptCursor ? Theme.cursor : .plain
            screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: style))
            screen.put((index == state.layout.promptCursor ? "›" : " ") + TerminalText.escapingControls(choice.label), x: inside.x, y: y, style: style, maxWidth: inside.width - detailWidth - 2)
            screen.putRight(TerminalText.escapingControls(choice.detail), right: inside.maxX - 1, y: y, style: index == state.layout.promptCursor ? style : Theme.dim)
            y += 1
        }
        var x = inside.x + 1
        for action in prompt.actions where x + action.key.count + action.label.count + 3 <= inside.maxX {
            x = screen.put(action.key, x: x, y: inside.maxY - 1, style: Theme.key)
            x = screen.put(" \(action.label)   ", x: x, y: inside.maxY - 1, style: Theme.dim)
        }
    }

    /// "Delay passes in 6:58" while the deadline is ahead.
    static func countdownLine(_ prompt: CustomerPrompt, now: Date) -> String? {
        guard let deadline = prompt.deadline else { return nil }
        let left = deadline.timeIntervalSince(now)
        return left > 0 ? "Delay passes in \(CheckoutView.clock(left.rounded(.up)))" : "The delay has passed; waiting for Square…"
    }

    static func hints(_ prompt: CustomerPrompt) -> [(String, String)] {
        (prompt.choices.isEmpty ? [] : [("↑↓", "choose")]) + prompt.actions.map { ($0.key, $0.label) }
            + (prompt.abandonable ? [("Esc", "abandon")] : []) + [("?", "help")]
    }
}
