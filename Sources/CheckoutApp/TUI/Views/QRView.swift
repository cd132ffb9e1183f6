import TerminalUI

/// The authorization link as a QR code, in a panel at the right of the body, while the
/// customer must act. When the body has no room for it the banner's link is all there is.
enum QRView {
    /// Columns the cart needs beside the code to stay readable.
    static let minimumColumnWidth = 52

    static func panelWidth(_ code: AuthorizationCode) -> Int { code.width + 2 }

    /// Whether `code` fits in `body` with cart, shipping and payment stacked beside it.
    static func fits(_ code: AuthorizationCode, in body: Rect, state: AppState) -> Bool {
        let (shipping, payment) = CheckoutView.stackedPaneHeights(state)
        return !code.lines.isEmpty && code.height + 2 <= body.height
            && body.width - panelWidth(code) >= minimumColumnWidth
            && CartView.neededHeight(state) + shipping + payment <= body.height
    }

    /// Dark modules must read dark: black on white, or without colours reverse video (dark on
    /// the light foreground of a dark-themed terminal).
    static func cell(for glyph: Character, colors: Bool) -> Cell {
        Cell(glyph, style: colors ? Style(foreground: .black, background: .white) : Style(reverse: true))
    }

    static func draw(_ screen: inout Screen, _ state: AppState, _ code: AuthorizationCode, _ panel: Rect) {
        let method = state.checkout.provider ?? state.selectedPaymentMethod
        let title = method.words("scan", choice: state.toggleChoices[method.id]) ?? "Scan to pay"
        let inside = screen.box(panel, title: title, style: Theme.focusedBorder, titleStyle: Theme.focusedBorder)
        let top = inside.y + max(0, (inside.height - code.height) / 2)
        for (row, line) in code.lines.enumerated() {
            for (column, glyph) in line.enumerated() {
                screen[inside.x + column, top + row] = cell(for: glyph, colors: state.layout.colors)
            }
        }
        screen.putRight(" v hides ", right: panel.maxX - 2, y: panel.maxY - 1, style: Theme.dim)
    }
}
