import TerminalUI

/// The bottom line: the keys that matter now.
enum HintsView {
    static func draw(_ screen: inout Screen, _ state: AppState, _ row: Rect) {
        var hints: [(String, String)] = []
        switch state.layout.overlay {
        case .help?: hints = [("Esc", "close")]
        case .confirmQuit?: hints = [("y", "quit"), ("n", "stay")]
        case .httpDetail?: hints = [("↑↓", "scroll"), ("PgUp/PgDn", "page"), ("Esc", "close")]
        case .addProduct?: hints = [("↑↓", "choose"), ("Enter", "add"), ("Esc", "close")]
        case nil where state.prompt != nil:
            hints = PromptView.hints(state.prompt!)
        case nil where state.director != nil:
            hints = (state.director?.hints ?? []).map { ($0.key, $0.action) }
        case nil:
            hints = [("Tab", "pane"), ("↑↓", "move")] + paymentPaneHints(state)
            switch state.checkout.state {
            case .notStarted where state.checkout.busyWithStep, .readyToAuthorize where state.checkout.busyWithStep: break
            case .notStarted: hints += [("+/-", "qty"), ("n", "add"), ("Enter", "select"), ("p", "pay")]
            case .readyToAuthorize: hints += [("+/-", "qty"), ("p", "authorize")]
            case .redirecting, .polling:
                hints += state.customerSimulated ? [("a", "approve"), ("x", "decline")] : []
            default: if state.checkout.ended { hints += [("r", "new checkout")] }
            }
            // Help and quit first: when the line is short, the log toggle and the link's keys are what drop off.
            hints += [("?", "help"), ("q", "quit"), ("l", state.layout.logVisible ? "hide log" : "show log")]
            if state.currentLink != nil { hints.append(("o/y", "open/copy link")) }
        }
        var x = row.x + 1
        for (key, action) in hints {
            guard x + key.count + action.count + 3 <= row.maxX else { break }
            x = screen.put(key, x: x, y: row.y, style: Theme.key)
            x = screen.put(" \(action)   ", x: x, y: row.y, style: Theme.dim)
        }
    }

    /// In the payment pane, when a checkout may start: its toggle's key, and delete on a saved row.
    private static func paymentPaneHints(_ state: AppState) -> [(String, String)] {
        guard state.layout.focus == .payment, state.checkout.idle || state.checkout.ended else { return [] }
        var hints: [(String, String)] = []
        if case .saved? = state.paymentRowUnderCursor { hints.append(("d", "delete saved")) }
        if let toggle = state.selectedPaymentMethod.toggle { hints.append(("s", toggle.label)) }
        return hints
    }
}
