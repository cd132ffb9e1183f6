import Foundation
import PaymentFlow
import TerminalUI

/// The part of a prompt's box that scrolls: its choices (with their headings and the rule over
/// the total) and its fields. When they do not fit, the window keeps the cursor (or the focused
/// field) in sight and the edge rows say how many more there are.
struct PromptRows {
    enum Row: Equatable {
        case heading(String)
        case rule
        case choice(Int)
        /// Between the choices and the fields.
        case gap
        case field(Int)
    }

    let prompt: CustomerPrompt
    let rows: [Row]
    /// The rows that must show: the cursor's choice with its heading, or the focused field.
    let focus: ClosedRange<Int>?
    let cursor: Int
    let field: Int
    let values: [String: String]
    let now: Date

    init(_ prompt: CustomerPrompt, state: AppState) {
        self.prompt = prompt
        cursor = state.layout.promptCursor
        field = max(0, min(state.layout.promptField, prompt.fields.count - 1))
        values = prompt.fieldValues(state.layout.promptValues)
        now = state.now
        var rows: [Row] = []
        var focus: ClosedRange<Int>?
        for (index, choice) in prompt.choices.enumerated() {
            let first = rows.count
            if let heading = choice.heading { rows.append(.heading(TerminalText.escapingControls(heading))) }
            if choice.emphasis { rows.append(.rule) }
            rows.append(.choice(index))
            if prompt.fields.isEmpty, index == cursor, choice.selectable { focus = first...rows.count - 1 }
        }
        if !prompt.fields.isEmpty {
            if !rows.isEmpty { rows.append(.gap) }
            focus = rows.count + field...rows.count + field
            rows += prompt.fields.indices.map(Row.field)
        }
        self.rows = rows
        self.focus = focus
    }

    var isEmpty: Bool { rows.isEmpty }
    var count: Int { rows.count }

    /// The columns the rows would like (the box is narrower on a small terminal).
    var width: Int {
        let labels = prompt.choices.map { TerminalText.escapingControls($0.label).count }.max() ?? 0
        let details = prompt.choices.map { detail(of: $0).text.count }.max() ?? 0
        let headings = rows.map { if case .heading(let text) = $0 { text.count + 2 } else { 0 } }.max() ?? 0
        guard !prompt.fields.isEmpty else { return max(labels + details + 6, headings) }
        let fieldLabels = prompt.fields.map { TerminalText.escapingControls($0.label).count }.max() ?? 0
        let fieldValues = max(Self.valueColumns, values.values.map(\.count).max() ?? 0)
        let hints = prompt.fields.map { $0.allowed.map { TerminalText.escapingControls($0).count + 2 } ?? 0 }.max() ?? 0
        return max(labels + details + 6, headings, fieldLabels + fieldValues + hints + 6)
    }

    /// Room for a value before the box grows as it is typed.
    static let valueColumns = 24

    /// The first row shown in `height` rows, and whether the top and bottom rows say "more".
    func window(height: Int) -> (top: Int, above: Bool, below: Bool) {
        guard rows.count > height, height > 0 else { return (0, false, false) }
        let tops = Array(0...(rows.count - height))
        func shows(_ top: Int, _ range: ClosedRange<Int>) -> Bool {
            let first = top + (top > 0 ? 1 : 0)
            let last = top + height - 1 - (top + height < rows.count ? 1 : 0)
            return range.lowerBound >= first && range.upperBound <= last
        }
        // The highest window that shows the focus whole; else its own row; else where it is.
        let top = focus.map { focus in
            tops.first { shows($0, focus) } ?? tops.first { shows($0, focus.upperBound...focus.upperBound) }
                ?? min(focus.upperBound, rows.count - height)
        } ?? 0
        return (top, top > 0, top + height < rows.count)
    }

    func draw(_ screen: inout Screen, in area: Rect) {
        let (top, above, below) = window(height: area.height)
        for offset in 0..<min(area.height, rows.count - top) {
            let index = top + offset
            let y = area.y + offset
            if offset == 0, above {
                more("↑", rows[...index], &screen, area, y)
            } else if offset == area.height - 1, below {
                more("↓", rows[index...], &screen, area, y)
            } else {
                drawRow(rows[index], &screen, area, y)
            }
        }
    }

    /// "↑ 3 more": the choices and fields out of sight that way (a marker row hides one itself).
    private func more(_ arrow: String, _ hidden: ArraySlice<Row>, _ screen: inout Screen, _ area: Rect, _ y: Int) {
        let count = hidden.filter { if case .choice = $0 { true } else if case .field = $0 { true } else { false } }.count
        screen.put(" " + arrow + (count > 0 ? " \(count) more" : " more"), x: area.x, y: y, style: Theme.dim, maxWidth: area.width)
    }

    private func drawRow(_ row: Row, _ screen: inout Screen, _ area: Rect, _ y: Int) {
        switch row {
        case .heading(let text):
            screen.put(" " + text, x: area.x, y: y, style: Theme.dim, maxWidth: area.width)
        case .rule:
            for x in area.x + 1..<max(area.x + 1, area.maxX - 1) { screen[x, y] = Cell("─", style: Theme.dim) }
        case .gap:
            break
        case .choice(let index):
            drawChoice(prompt.choices[index], at: index, &screen, area, y)
        case .field(let index):
            drawField(prompt.fields[index], at: index, &screen, area, y)
        }
    }
}
