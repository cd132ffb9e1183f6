import TerminalUI

/// The bottom line: the keys that matter now, as the key bindings name them.
enum HintsView {
    static func draw(_ screen: inout Screen, _ state: AppState, _ row: Rect) {
        let hints: [(String, String)]
        if let overlay = state.layout.overlay {
            hints = KeyBindings.hints(in: overlay.kind).map { ($0.keys, $0.text) }
        } else if let prompt = state.prompt {
            hints = PromptView.hints(prompt)
        } else if let director = state.director {
            hints = director.hints.map { ($0.key, $0.action) }
        } else {
            hints = screenHints(state).map { ($0.keys, $0.text) }
        }
        var x = row.x + 1
        for (key, action) in hints {
            guard x + key.count + action.count + 3 <= row.maxX else { break }
            x = screen.put(key, x: x, y: row.y, style: Theme.key)
            x = screen.put(" \(action)   ", x: x, y: row.y, style: Theme.dim)
        }
    }

    /// The checkout screen's: what the checkout's state allows, then help, quit and the log.
    private static func screenHints(_ state: AppState) -> [KeyHint] {
        var hints = [KeyBindings.hint(.nextPane), KeyBindings.hint(.move(by: 1))] + paymentPaneHints(state)
        switch state.checkout.state {
        case .notStarted where state.checkout.busyWithStep, .readyToAuthorize where state.checkout.busyWithStep: break
        case .notStarted:
            hints += [KeyBindings.hint(.changeQuantity(by: 1)), KeyBindings.hint(.addProduct), KeyBindings.hint(.choose), KeyBindings.hint(.pay)]
        case .readyToAuthorize: hints += [KeyBindings.hint(.changeQuantity(by: 1)), KeyBindings.hint(.pay)?.saying("authorize")]
        case .redirecting, .polling:
            hints += state.customerSimulated ? [KeyBindings.hint(.approve), KeyBindings.hint(.decline)] : []
        default: if state.checkout.ended { hints += [KeyBindings.hint(.restart)] }
        }
        // Help and quit first: when the line is short, the log toggle and the link's keys are what drop off.
        hints += [KeyBindings.hint(.showHelp), KeyBindings.hint(.quit), KeyBindings.hint(.toggleLog)?.saying(state.layout.logVisible ? "hide log" : "show log")]
        if state.currentLink != nil { hints.append(KeyBindings.hint(.openLink)) }
        return hints.compactMap { $0 }
    }

    /// In the payment pane, when a checkout may start: delete on a saved row, and its toggle's key.
    private static func paymentPaneHints(_ state: AppState) -> [KeyHint?] {
        guard state.layout.focus == .payment, state.checkout.idle || state.checkout.ended || state.checkout.untouchedOnLoad else { return [] }
        var hints: [KeyHint?] = []
        if case .saved? = state.paymentRowUnderCursor { hints.append(KeyBindings.hint(.deleteSaved)) }
        if let toggle = state.selectedPaymentMethod.toggle { hints.append(KeyBindings.hint(.switchOption)?.saying(toggle.label)) }
        return hints
    }
}
