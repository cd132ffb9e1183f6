import Foundation
import ProviderClients
import TerminalUI

/// One exchange in full (already redacted), scrollable.
enum HTTPDetailView {
    static func draw(_ screen: inout Screen, _ state: AppState, exchangeID: Int, scroll: Int) {
        let rect = frame(state)
        screen.fill(rect)
        guard let exchange = state.exchanges.first(where: { $0.id == exchangeID }) else {
            let inside = screen.box(rect, title: "HTTP exchange", style: Theme.focusedBorder)
            screen.put("This exchange is no longer in the log.", x: inside.x + 1, y: inside.y, style: Theme.dim)
            return
        }
        let title = "\(exchange.method) \(exchange.path) → \(exchange.status.map(String.init) ?? "no response")"
        let inside = screen.box(rect, title: title, style: Theme.focusedBorder, titleStyle: Theme.focusedBorder)
        let lines = self.lines(for: exchange, width: inside.width - 2)
        let top = max(0, min(scroll, lines.count - inside.height))
        for (row, line) in lines.dropFirst(top).prefix(inside.height).enumerated() {
            screen.put(line.text, x: inside.x + 1, y: inside.y + row, style: line.style, maxWidth: inside.width - 1)
        }
        if lines.count > inside.height {
            let position = "\(top + 1)–\(min(lines.count, top + inside.height)) of \(lines.count)"
            screen.putRight(" \(position) ", right: rect.maxX - 2, y: rect.maxY - 1, style: Theme.focusedBorder)
        }
    }

    /// The box the exchange is shown in: the screen between the title and the hints.
    static func frame(_ state: AppState) -> Rect {
        Rect(x: 0, y: 1, width: state.layout.width, height: state.layout.height - 2)
    }

    /// The furthest the text scrolls: its last line at the bottom of the box.
    static func lastTop(_ state: AppState, exchangeID: Int) -> Int {
        guard let exchange = state.exchanges.first(where: { $0.id == exchangeID }) else { return 0 }
        let inside = frame(state).inset(by: 1)
        return max(0, lines(for: exchange, width: inside.width - 2).count - inside.height)
    }

    struct Line { let text: String; let style: Style }

    static func lines(for exchange: HTTPExchange, width: Int) -> [Line] {
        var lines: [Line] = []
        func heading(_ text: String) { lines.append(Line(text: text, style: Theme.key)) }
        func body(_ text: String?) {
            guard let text, !text.isEmpty else { lines.append(Line(text: "(empty)", style: Theme.dim)); return }
            for line in prettyJSON(text).split(separator: "\n", omittingEmptySubsequences: false) {
                // Cut long lines into pieces, keeping indentation (JSON nesting) intact.
                var rest = Substring(line)
                repeat {
                    lines.append(Line(text: String(rest.prefix(max(10, width))), style: .plain))
                    rest = rest.dropFirst(max(10, width))
                } while !rest.isEmpty
            }
        }
        let status = exchange.status.map { "HTTP \($0)" } ?? "no response"
        lines.append(Line(text: "\(exchange.method) \(exchange.url)", style: .bold))
        lines.append(Line(text: "\(status) in \(exchange.durationMilliseconds) ms · attempt \(exchange.attempt) · \(exchange.provider)", style: Theme.dim))
        if let failure = exchange.failure { lines.append(Line(text: failure, style: Theme.warning)) }
        lines.append(Line(text: "", style: .plain))
        heading("Request headers")
        for header in exchange.requestHeaders { lines.append(Line(text: "  \(header.name): \(header.value)", style: .plain)) }
        heading("Request body")
        body(exchange.requestBody)
        lines.append(Line(text: "", style: .plain))
        heading("Response headers")
        for header in exchange.responseHeaders { lines.append(Line(text: "  \(header.name): \(header.value)", style: .plain)) }
        heading("Response body")
        body(exchange.responseBody)
        return lines
    }

    /// Indented JSON for reading; anything else as it is.
    static func prettyJSON(_ text: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
            let pretty = String(data: data, encoding: .utf8)
        else { return text }
        return pretty
    }
}
