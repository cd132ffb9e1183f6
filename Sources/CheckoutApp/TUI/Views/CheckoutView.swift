import Foundation
import PaymentFlow
import TerminalUI

/// Draws the whole screen from the state: a pure function, so screens are golden-tested.
public enum CheckoutView {
    public static let minimumWidth = 80
    public static let minimumHeight = 24

    public static func render(_ state: AppState) -> Screen {
        var screen = Screen(width: state.layout.width, height: state.layout.height)
        guard let geometry = PaneGeometry(state) else {
            drawTooSmall(&screen)
            return screen
        }
        drawTitle(&screen, state, geometry.title)
        BannerView.draw(&screen, state, geometry.banner)
        HintsView.draw(&screen, state, geometry.hints)
        CartView.draw(&screen, state, geometry.cart)
        ShippingView.draw(&screen, state, paymentArea: geometry.shipping)
        PaymentView.draw(&screen, state, geometry.payment)
        if let log = geometry.log { HTTPLogView.draw(&screen, state, log) }
        if let code = state.checkout.authorizationCode, let panel = geometry.code { QRView.draw(&screen, state, code, panel) }

        if let prompt = state.prompt, state.layout.overlay == nil { PromptView.draw(&screen, state, prompt) }
        switch state.layout.overlay {
        case .help?: OverlayView.help(&screen, state)
        case .confirmQuit?: OverlayView.confirmQuit(&screen, state)
        case .addProduct(let cursor)?: OverlayView.addProduct(&screen, state, cursor: cursor)
        case .httpDetail(let id, let scroll)?: HTTPDetailView.draw(&screen, state, exchangeID: id, scroll: scroll)
        case nil: break
        }
        return screen
    }

    static func stackedPaneHeights(_ state: AppState) -> (shipping: Int, payment: Int) {
        (state.cart.shippingMethods.count + 2, state.paymentRows.count + 2)
    }

    private static func drawTitle(_ screen: inout Screen, _ state: AppState, _ row: Rect) {
        screen.fill(row, with: Cell(" ", style: Theme.title))
        let scenario = state.recording.scenario.map { " · \($0.name)" } ?? ""
        let right = "\(state.director?.label ?? state.endpointLabel) "
        // The left part gives way (cut short) to the endpoint on the right, with a space between.
        screen.put(
            " TerminalCheckout · \(state.merchantName)\(scenario)", x: 0, y: row.y, style: Theme.title.with { $0.bold = true },
            maxWidth: max(0, row.width - right.count - 1))
        screen.putRight(right, right: row.maxX, y: row.y, style: Theme.title)
    }

    private static func drawTooSmall(_ screen: inout Screen) {
        let message = "terminal too small: need \(minimumWidth)×\(minimumHeight), have \(screen.width)×\(screen.height)"
        let lines = wrap(message, width: max(1, screen.width))
        let top = max(0, (screen.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            screen.put(line, x: max(0, (screen.width - line.count) / 2), y: top + offset, style: Theme.warning)
        }
    }

    /// Splits text into lines of at most `width` characters, at spaces where possible.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = String(word)
            while word.count > width {
                if !current.isEmpty { lines.append(current); current = "" }
                lines.append(String(word.prefix(width)))
                word = String(word.dropFirst(width))
            }
            if current.isEmpty { current = word } else if current.count + 1 + word.count <= width { current += " " + word } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// "0:07", "12:03": minutes and seconds.
    static func clock(_ interval: TimeInterval) -> String {
        let seconds = max(0, Int(interval))
        let twoDigits = { (value: Int) in (value < 10 ? "0" : "") + "\(value)" }
        // An hour or more (Square's default delay is 36 h): h:mm:ss, never 2159:48.
        if seconds >= 3600 { return "\(seconds / 3600):" + twoDigits(seconds / 60 % 60) + ":" + twoDigits(seconds % 60) }
        return "\(seconds / 60):" + twoDigits(seconds % 60)
    }

    /// The pane frame, highlighted when focused.
    static func pane(_ screen: inout Screen, _ state: AppState, _ pane: Pane, _ rect: Rect, title: String) -> Rect {
        let focused = state.layout.focus == pane && state.layout.overlay == nil
        return screen.box(rect, title: title, style: focused ? Theme.focusedBorder : Theme.border,
                          titleStyle: focused ? Theme.focusedBorder : Style.bold)
    }
}
