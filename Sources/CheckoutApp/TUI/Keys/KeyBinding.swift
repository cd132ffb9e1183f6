import TerminalUI

/// Where a key is looked up: the whole screen (before the focused pane), one pane, or an overlay.
enum KeyScope: Hashable, Sendable {
    case screen
    case pane(Pane)
    case overlay(OverlayKind)
}

/// An overlay without its contents, to look its keys up by.
enum OverlayKind: Hashable, Sendable {
    case help, quitQuestion, catalog, exchange
}

extension Overlay {
    var kind: OverlayKind {
        switch self {
        case .help: .help
        case .confirmQuit: .quitQuestion
        case .addProduct: .catalog
        case .httpDetail: .exchange
        }
    }
}

/// What a key does; each scope's handler performs the actions bound in it.
enum KeyAction: Hashable, Sendable {
    case quitNow, quit, showHelp, nextPane, previousPane
    case changeQuantity(by: Int)
    case addProduct, pay, approve, decline, restart, toggleCode, openLink, copyLink, toggleLog
    /// A list's cursor, or an open exchange's text, by rows.
    case move(by: Int)
    /// Enter on a row: a shipping or payment method, an exchange to open.
    case choose
    case switchOption, deleteSaved
    case page(by: Int)
    case top, addToCart, closeOverlay
    /// Clicks and the wheel: `MouseActions`, never a key; bound only to show in help.
    case mouse
}

/// A line of the `?` overlay. Bindings naming the same line share it (`a  x`).
struct KeyHelpRow: Hashable, Sendable {
    let keys: String
    let text: String

    init(_ keys: String, _ text: String) {
        self.keys = keys
        self.text = text
    }
}

/// An entry of the hints line. Bindings naming the same entry share it (`o/y`).
struct KeyHint: Hashable, Sendable {
    let keys: String
    let text: String

    init(_ keys: String, _ text: String) {
        self.keys = keys
        self.text = text
    }

    /// The same keys with what they do in the present state ("authorize", "hide log").
    func saying(_ text: String) -> KeyHint { KeyHint(keys, text) }
}

/// One binding: its keys, where they work, what they do, and how help and hints show it.
struct KeyBinding: Sendable {
    let keys: [Key]
    let action: KeyAction
    let scopes: [KeyScope]
    let help: KeyHelpRow?
    let hint: KeyHint?

    init(_ keys: [Key], _ action: KeyAction, in scopes: [KeyScope], help: KeyHelpRow? = nil, hint: KeyHint? = nil) {
        self.keys = keys
        self.action = action
        self.scopes = scopes
        self.help = help
        self.hint = hint
    }

    /// Whether it works on the checkout screen itself rather than only inside an overlay.
    var onScreen: Bool {
        scopes.contains { if case .overlay = $0 { false } else { true } }
    }
}
