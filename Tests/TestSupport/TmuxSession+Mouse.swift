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
        let button: Int
        switch action {
        case .press: button = 0
        case .release: button = 3
        case .wheelUp: button = 64
        case .wheelDown: button = 65
        }
        if programWantsSGR {
            let sgrButton = action == .release ? 0 : button
            try tmux(["send-keys", "-t", name, "-l", "\u{1B}[<\(sgrButton);\(x + 1);\(y + 1)\(action == .release ? "m" : "M")"])
        } else {
            // X10: three bytes of 32 + value (coordinates 1-based), sent as raw bytes.
            let bytes = [0x1B, 0x5B, 0x4D, 32 + button, 33 + x, 33 + y]
            try tmux(["send-keys", "-t", name, "-H"] + bytes.map { String($0, radix: 16) })
        }
    }

    /// A press and a release at the cell, as a click is.
    public func click(x: Int, y: Int) throws {
        try mouse(.press, x: x, y: y)
        try mouse(.release, x: x, y: y)
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
