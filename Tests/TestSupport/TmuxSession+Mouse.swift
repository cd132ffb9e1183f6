import Foundation

/// Mouse actions as a terminal reports them to the program in the pane, in the encoding the
/// program asked for: SGR (`ESC [ < b ; x ; y M`) when it turned on mode 1006, else X10's bytes.
extension TmuxSession {
    public enum MouseAction: Sendable {
        case press, release, wheelUp, wheelDown
    }

    /// Whether the program in the pane asked for mouse reports.
    public var programWantsMouse: Bool {
        (try? tmux(["display-message", "-p", "-t", name, "#{mouse_any_flag}#{mouse_standard_flag}#{mouse_button_flag}"]))?.contains("1") ?? false
    }

    private var programWantsSGR: Bool {
        (try? tmux(["display-message", "-p", "-t", name, "#{mouse_sgr_flag}"]))?.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Reports `action` at the 0-based cell (x, y).
    public func mouse(_ action: MouseAction, x: Int, y: Int) throws {
        try mouse([(action, x, y)])
    }

    /// Reports every action in one write, so the program reads them together: a quick click over
    /// SSH, or wheel notches a terminal batches.
    public func mouse(_ actions: [(action: MouseAction, x: Int, y: Int)]) throws {
        if programWantsSGR {
            try tmux(["send-keys", "-t", name, "-l", actions.map { Self.sgrReport($0.action, x: $0.x, y: $0.y) }.joined()])
        } else {
            let bytes = actions.flatMap { Self.x10Report($0.action, x: $0.x, y: $0.y) }
            try tmux(["send-keys", "-t", name, "-H"] + bytes.map { String($0, radix: 16) })
        }
    }

    private static func buttonCode(_ action: MouseAction) -> Int {
        switch action {
        case .press: 0
        case .release: 3
        case .wheelUp: 64
        case .wheelDown: 65
        }
    }

    private static func sgrReport(_ action: MouseAction, x: Int, y: Int) -> String {
        let sgrButton = action == .release ? 0 : buttonCode(action)
        return "\u{1B}[<\(sgrButton);\(x + 1);\(y + 1)\(action == .release ? "m" : "M")"
    }

    /// X10: three bytes of 32 + value (coordinates 1-based), sent as raw bytes.
    private static func x10Report(_ action: MouseAction, x: Int, y: Int) -> [Int] {
        [0x1B, 0x5B, 0x4D, 32 + buttonCode(action), 33 + x, 33 + y]
    }

    /// A press and a release at the cell, as a click is.
    public func click(x: Int, y: Int) throws {
        try mouse(.press, x: x, y: y)
        try mouse(.release, x: x, y: y)
    }

    /// A click whose press and release reach the program in one read.
    public func batchedClick(x: Int, y: Int) throws {
        try mouse([(.press, x, y), (.release, x, y)])
    }

    /// The cell where `text` starts on the screen now.
    public func cell(of text: String) throws -> (x: Int, y: Int)? {
        for (y, line) in try screen().split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let characters = Array(line)
            let needle = Array(text)
            guard characters.count >= needle.count else { continue }
            if let x = (0...(characters.count - needle.count)).first(where: { Array(characters[$0..<$0 + needle.count]) == needle }) {
                return (x, y)
            }
        }
        return nil
    }
}
