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
        ("?", "this help"),
        ("Esc", "close an overlay"),
        ("q", "quit (asks first while a payment is in flight)"),
        ("Ctrl-C", "quit at once"),
    ]
}
