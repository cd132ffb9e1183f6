import TerminalUI

/// Every key binding, the one list that key dispatch, the hints line and the `?` overlay read.
/// Its order is the overlay's order of lines and each overlay's order of hints.
/// (A provider's prompt is the exception: its keys are the prompt's own actions.)
enum KeyBindings {
    static let all: [KeyBinding] = [
        KeyBinding([.tab], .nextPane, in: [.screen], help: .panes, hint: KeyHint("Tab", "pane")),
        KeyBinding([.backTab], .previousPane, in: [.screen], help: .panes),
        KeyBinding([.up, .character("k")], .move(by: -1), in: everyPane, help: .lists, hint: .move),
        KeyBinding([.down, .character("j")], .move(by: 1), in: everyPane, help: .lists, hint: .move),
        KeyBinding([.up, .character("k")], .move(by: -1), in: [.overlay(.catalog)], help: .lists, hint: .chooseProduct),
        KeyBinding([.down, .character("j")], .move(by: 1), in: [.overlay(.catalog)], help: .lists, hint: .chooseProduct),
        KeyBinding([.up, .character("k")], .move(by: -1), in: [.overlay(.exchange)], hint: .scroll),
        KeyBinding([.down, .character("j")], .move(by: 1), in: [.overlay(.exchange)], hint: .scroll),
        KeyBinding([.pageUp], .page(by: -1), in: [.overlay(.exchange)], help: .paging, hint: .page),
        KeyBinding([.pageDown, .character(" ")], .page(by: 1), in: [.overlay(.exchange)], help: .paging, hint: .page),
        KeyBinding([.home], .top, in: [.overlay(.exchange)], help: .paging),
        KeyBinding([.character("+"), .character("=")], .changeQuantity(by: 1), in: [.screen], help: .quantity, hint: .quantity),
        KeyBinding([.character("-"), .character("_")], .changeQuantity(by: -1), in: [.screen], help: .quantity, hint: .quantity),
        KeyBinding([.character("n")], .addProduct, in: [.screen], help: KeyHelpRow("n", "add a product from the catalog"), hint: KeyHint("n", "add")),
        KeyBinding(
            [.enter, .character(" ")], .choose, in: [.pane(.shipping), .pane(.payment), .pane(.log)],
            help: KeyHelpRow("Enter", "pick shipping or payment; authorize; open an HTTP entry"), hint: KeyHint("Enter", "select")),
        KeyBinding([.enter, .character(" "), .character("+")], .addToCart, in: [.overlay(.catalog)], hint: KeyHint("Enter", "add")),
        // Its hint names the chosen method's option instead.
        KeyBinding([.character("s")], .switchOption, in: [.pane(.payment)], help: .paymentPane, hint: KeyHint("s", "switch")),
        KeyBinding([.character("d")], .deleteSaved, in: [.pane(.payment)], help: .paymentPane, hint: KeyHint("d", "delete saved")),
        KeyBinding(
            [.character("p")], .pay, in: [.screen], help: KeyHelpRow("p", "pay with the selected method; again to authorize"),
            hint: KeyHint("p", "pay")),
        KeyBinding([.character("a")], .approve, in: [.screen], help: .customer, hint: KeyHint("a", "approve")),
        KeyBinding([.character("x")], .decline, in: [.screen], help: .customer, hint: KeyHint("x", "decline")),
        KeyBinding([.character("r")], .restart, in: [.screen], help: KeyHelpRow("r", "start a new checkout after it ended"), hint: KeyHint("r", "new checkout")),
        KeyBinding([.character("l")], .toggleLog, in: [.screen], help: KeyHelpRow("l", "show or hide the HTTP log"), hint: KeyHint("l", "show log")),
        KeyBinding([.character("v")], .toggleCode, in: [.screen], help: KeyHelpRow("v", "hide or show the QR code of the authorization link")),
        KeyBinding([.character("o")], .openLink, in: [.screen], help: KeyHelpRow("o", "open the payment or receipt link in the browser"), hint: .link),
        KeyBinding([.character("y")], .copyLink, in: [.screen], help: KeyHelpRow("y", "copy the link to the clipboard (OSC 52)"), hint: .link),
        KeyBinding([], .mouse, in: everyPane, help: KeyHelpRow("click · wheel", "select a pane or row, twice to choose · scroll")),
        KeyBinding([.character("?")], .showHelp, in: [.screen], help: KeyHelpRow("?", "this help"), hint: KeyHint("?", "help")),
        KeyBinding([.escape, .character("?"), .character("q"), .enter], .closeOverlay, in: [.overlay(.help)], help: .closeOverlay, hint: .close),
        KeyBinding([.character("y"), .character("Y")], .quitNow, in: [.overlay(.quitQuestion)], hint: KeyHint("y", "quit")),
        KeyBinding(
            [.character("n"), .character("N"), .escape, .character("q")], .closeOverlay, in: [.overlay(.quitQuestion)], help: .closeOverlay,
            hint: KeyHint("n", "stay")),
        KeyBinding([.escape, .character("q"), .character("n")], .closeOverlay, in: [.overlay(.catalog)], help: .closeOverlay, hint: .close),
        KeyBinding([.escape, .character("q"), .enter], .closeOverlay, in: [.overlay(.exchange)], help: .closeOverlay, hint: .close),
        KeyBinding(
            [.character("q")], .quit, in: [.screen], help: KeyHelpRow("q", "quit (asks first while a payment is in flight)"), hint: KeyHint("q", "quit")),
        KeyBinding([.control("c")], .quitNow, in: [.screen] + everyOverlay, help: KeyHelpRow("Ctrl-C", "quit at once")),
    ]

    static let everyPane = Pane.allCases.map { KeyScope.pane($0) }
    static let everyOverlay: [KeyScope] = [.overlay(.help), .overlay(.quitQuestion), .overlay(.catalog), .overlay(.exchange)]

    /// What `key` does in `scope`; the first binding wins.
    static func action(for key: Key, in scope: KeyScope) -> KeyAction? {
        actions[ScopedKey(scope: scope, key: key)]
    }

    /// The checkout screen's hint for `action`.
    static func hint(_ action: KeyAction) -> KeyHint? {
        all.first { $0.action == action && $0.hint != nil && $0.onScreen }?.hint
    }

    /// An overlay's hints line: the hints of the bindings that work in it, in the table's order.
    static func hints(in overlay: OverlayKind) -> [KeyHint] {
        var hints: [KeyHint] = []
        for binding in all where binding.scopes.contains(.overlay(overlay)) {
            if let hint = binding.hint, !hints.contains(hint) { hints.append(hint) }
        }
        return hints
    }

    private struct ScopedKey: Hashable {
        let scope: KeyScope
        let key: Key
    }

    /// Built on the first key press, so a key costs one hash lookup.
    private static let actions: [ScopedKey: KeyAction] = {
        var actions: [ScopedKey: KeyAction] = [:]
        for binding in all {
            for scope in binding.scopes {
                for key in binding.keys where actions[ScopedKey(scope: scope, key: key)] == nil {
                    actions[ScopedKey(scope: scope, key: key)] = binding.action
                }
            }
        }
        return actions
    }()
}

/// Lines of the `?` overlay that several bindings share.
extension KeyHelpRow {
    fileprivate static let panes = KeyHelpRow("Tab / Shift-Tab", "move between panes")
    fileprivate static let lists = KeyHelpRow("↑ ↓  or  k j", "move in a list")
    fileprivate static let paging = KeyHelpRow("PgUp PgDn Home", "page through an HTTP entry; Home back to its top")
    fileprivate static let quantity = KeyHelpRow("+  -", "change the selected item's quantity (0 removes it)")
    fileprivate static let paymentPane = KeyHelpRow("s  d", "switch the method's option / delete a saved method")
    fileprivate static let customer = KeyHelpRow("a  x", "approve / decline as the customer (embedded sandbox)")
    fileprivate static let closeOverlay = KeyHelpRow("Esc", "close an overlay")
}

/// Hints that several bindings share.
extension KeyHint {
    fileprivate static let move = KeyHint("↑↓", "move")
    fileprivate static let chooseProduct = KeyHint("↑↓", "choose")
    fileprivate static let scroll = KeyHint("↑↓", "scroll")
    fileprivate static let page = KeyHint("PgUp/PgDn", "page")
    fileprivate static let quantity = KeyHint("+/-", "qty")
    fileprivate static let link = KeyHint("o/y", "open/copy link")
    fileprivate static let close = KeyHint("Esc", "close")
}
