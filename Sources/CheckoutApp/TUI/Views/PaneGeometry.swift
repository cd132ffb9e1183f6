import TerminalUI

/// Where everything sits on the screen for a state: `CheckoutView` draws into these rectangles
/// and mouse clicks are tested against them, so what is clicked is what was drawn.
struct PaneGeometry: Hashable {
    var title: Rect
    var banner: Rect
    var hints: Rect
    var cart: Rect
    var shipping: Rect
    var payment: Rect
    /// Nil when the log is hidden or has no room.
    var log: Rect?
    /// The QR code's panel, when the code shows.
    var code: Rect?

    /// Nil below the minimum size (the screen then only says it is too small).
    init?(_ state: AppState) {
        guard state.layout.width >= CheckoutView.minimumWidth, state.layout.height >= CheckoutView.minimumHeight else { return nil }
        let full = Rect(x: 0, y: 0, width: state.layout.width, height: state.layout.height)
        let (titleRow, rest) = full.splitTop(1)
        let (bannerArea, belowBanner) = rest.splitTop(4)
        let (body, hintsRow) = belowBanner.splitBottom(1)
        (title, banner, hints) = (titleRow, bannerArea, hintsRow)
        if let code = state.checkout.authorizationCode, !state.layout.codeHidden, QRView.fits(code, in: body, state: state) {
            let (left, panel) = body.splitLeft(body.width - QRView.panelWidth(code))
            self.code = panel
            (cart, shipping, payment, log) = Self.stacked(state, left)
        } else {
            (cart, shipping, payment, log) = Self.sideBySide(state, body)
        }
    }

    /// The pane drawn at (x, y), if any.
    func pane(atX x: Int, y: Int) -> Pane? {
        let panes: [(Pane, Rect?)] = [(.cart, cart), (.shipping, shipping), (.payment, payment), (.log, log)]
        return panes.first { $0.1?.contains(x: x, y: y) == true }?.0
    }

    func rect(of pane: Pane) -> Rect? {
        switch pane {
        case .cart: cart
        case .shipping: shipping
        case .payment: payment
        case .log: log
        }
    }

    /// The usual layout: cart beside shipping and payment, the HTTP log below.
    private static func sideBySide(_ state: AppState, _ body: Rect) -> (Rect, Rect, Rect, Rect?) {
        // Tall enough for the cart, or for every shipping and payment method, before the log.
        let rightNeeded = state.cart.shippingMethods.count + 2 + state.paymentMethods.count + 2
        let mainHeight = state.layout.logVisible ? min(body.height - 5, max(CartView.neededHeight(state), 11, rightNeeded)) : body.height
        let (main, logArea) = body.splitTop(mainHeight)
        let leftWidth = main.width * 56 / 100
        let (cartArea, rightColumn) = main.splitLeft(leftWidth)
        // Shipping keeps its methods in view; the payment pane scrolls its saved methods.
        let paymentHeight = min(state.paymentRows.count + 2, max(state.paymentMethods.count + 2, rightColumn.height - state.cart.shippingMethods.count - 2))
        let (shippingArea, paymentArea) = rightColumn.splitBottom(paymentHeight)
        return (cartArea, shippingArea, paymentArea, state.layout.logVisible ? logArea : nil)
    }

    /// Beside the QR code: cart, shipping and payment stacked, the HTTP log in what is left.
    private static func stacked(_ state: AppState, _ column: Rect) -> (Rect, Rect, Rect, Rect?) {
        let (shippingHeight, paymentHeight) = CheckoutView.stackedPaneHeights(state)
        let rest = column.height - shippingHeight - paymentHeight
        let cartHeight = state.layout.logVisible && rest - CartView.neededHeight(state) >= 3 ? CartView.neededHeight(state) : rest
        let (cartArea, below) = column.splitTop(cartHeight)
        let (shippingArea, belowShipping) = below.splitTop(shippingHeight)
        let (paymentArea, logArea) = belowShipping.splitTop(paymentHeight)
        return (cartArea, shippingArea, paymentArea, logArea.height >= 3 ? logArea : nil)
    }
}

extension Rect {
    func contains(x: Int, y: Int) -> Bool { x >= self.x && x < maxX && y >= self.y && y < maxY }
}
