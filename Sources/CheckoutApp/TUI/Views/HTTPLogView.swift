import Foundation
import ProviderClients
import TerminalUI

/// The latest exchanges, newest at the bottom: method, path, status, duration; under them the
/// latest providers' notices (webhooks), one line each.
enum HTTPLogView {
    /// Rows the notices may take, at most.
    static let noticeRows = 2

    static func draw(_ screen: inout Screen, _ state: AppState, _ area: Rect) {
        let title = "HTTP log (\(state.exchanges.count))" + (state.notices.isEmpty ? "" : " · events (\(state.notices.count))")
        let box = CheckoutView.pane(&screen, state, .log, area, title: title)
        guard box.height > 0 else { return }
        let inside = exchangeRows(state, inside: box)
        for (row, received) in state.notices.suffix(box.height - inside.height).enumerated() {
            drawNotice(&screen, received, now: state.now, x: inside.x, y: inside.maxY + row, width: inside.width)
        }
        if state.exchanges.isEmpty {
            screen.put("No requests yet. Press p to pay; every exchange appears here.", x: inside.x + 1, y: inside.y, style: Theme.dim, maxWidth: inside.width - 1)
            return
        }
        let cursor = state.layout.logCursor ?? state.exchanges.count - 1
        for (row, index) in shownExchanges(state, rows: inside.height).enumerated() {
            let exchange = state.exchanges[index]
            let y = inside.y + row
            let focused = index == cursor && state.layout.focus == .log && state.layout.overlay == nil
            let base: Style = focused ? Theme.cursor : .plain
            if focused { screen.fill(Rect(x: inside.x, y: y, width: inside.width, height: 1), with: Cell(" ", style: base)) }
            let status = exchange.status.map(String.init) ?? "---"
            let duration = "\(exchange.durationMilliseconds) ms"
            let retry = exchange.attempt > 1 ? " retry \(exchange.attempt - 1)" : ""
            let tail = "\(status)  \(duration.leftPadded(to: 7))"
            // Six columns hold GET … PATCH; DELETE (six letters) still needs its space.
            let method = exchange.method.count < 6 ? exchange.method.padding(toLength: 6, withPad: " ", startingAt: 0) : exchange.method + " "
            var x = screen.put(" " + method, x: inside.x, y: y, style: base.with { $0.bold = true })
            x = screen.put(exchange.path + retry, x: x, y: y, style: base, maxWidth: inside.maxX - x - tail.count - 2)
            let tailX = inside.maxX - 1 - tail.count
            screen.put(status, x: tailX, y: y, style: focused ? base : Theme.status(exchange.status))
            screen.putRight(duration, right: inside.maxX - 1, y: y, style: focused ? base : Theme.dim)
            if let failure = exchange.failure, x + 3 < tailX - 1 {
                screen.put("  " + failure, x: x, y: y, style: focused ? base : Theme.warning, maxWidth: tailX - x - 1)
            }
        }
    }
}

extension HTTPLogView {
    /// The exchanges' rows inside the pane: what the latest notices (at most `noticeRows`) leave.
    static func exchangeRows(_ state: AppState, inside: Rect) -> Rect {
        let notices = min(state.notices.count, noticeRows, max(0, inside.height - 1))
        return Rect(x: inside.x, y: inside.y, width: inside.width, height: inside.height - notices)
    }

    /// The exchanges shown in `rows` rows: the cursor's stays visible, otherwise the newest.
    static func shownExchanges(_ state: AppState, rows: Int) -> Range<Int> {
        let cursor = state.layout.logCursor ?? state.exchanges.count - 1
        let last = max(min(state.exchanges.count, cursor + 1), min(state.exchanges.count, rows))
        return max(0, last - rows)..<last
    }

    /// The exchange drawn on row `y` of the pane in `area`, if any.
    static func exchange(atRow y: Int, _ state: AppState, _ area: Rect) -> Int? {
        let list = exchangeRows(state, inside: area.inset(by: 1))
        guard y >= list.y, y < list.maxY else { return nil }
        let shown = shownExchanges(state, rows: list.height)
        let index = shown.lowerBound + (y - list.y)
        return shown.contains(index) ? index : nil
    }

    /// `⚑ 20:01:05 webhook AUTHORISATION 8815… success signature ✓`, red when it was rejected.
    static func drawNotice(_ screen: inout Screen, _ received: ReceivedNotice, now: Date, x: Int, y: Int, width: Int) {
        let time = LocalTimeOfDay.text(received.at)
        let style = received.notice.verified ? Theme.dim : Theme.warning
        let text = " ⚑ \(time) " + TerminalText.escapingControls(received.notice.summary)
        screen.put(text, x: x, y: y, style: style, maxWidth: width - 1)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
