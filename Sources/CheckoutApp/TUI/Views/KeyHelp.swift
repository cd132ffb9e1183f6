/// Every key, for the `?` overlay and the README.
enum KeyHelp {
    static let all: [(keys: String, action: String)] = [
        ("Tab / Shift-Tab", "move between panes"),
        ("↑ ↓  or  k j", "move in a list"),
        ("+  -", "change the selected item's quantity (0 removes it)"),
        ("n", "add a product from the catalog"),
        ("Enter", "select shipping or payment method; authorize; open an HTTP entry"),
        ("p", "pay with the selected method; again to authorize"),
        ("a  x", "approve / decline as the customer (embedded sandbox)"),
        ("r", "start a new checkout after it ended"),
        ("l", "show or hide the HTTP log"),
        ("v", "hide or show the QR code of the authorization link"),
        ("o", "open the payment or receipt link in the browser"),
        ("y", "copy the link to the clipboard (OSC 52)"),
        ("click · wheel", "select a pane or row, twice to choose · scroll"),
        ("?", "this help"),
        ("Esc", "close an overlay"),
        ("q", "quit (asks first while a payment is in flight)"),
        ("Ctrl-C", "quit at once"),
    ]
}
