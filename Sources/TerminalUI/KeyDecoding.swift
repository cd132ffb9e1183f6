/// What one read from the terminal means.
public enum TerminalInput: Hashable, Sendable {
    case key(Key)
    case resize
    /// A click or the wheel (only when the screen turned the mouse on and the terminal has one).
    case mouse(MouseEvent)
}

/// Turns ncurses' `get_wch` results into keys. Pure, so it is tested without a terminal.
/// Function-key codes are ncurses' (stable across versions).
public enum KeyDecoding {
    static let functionKeys: [UInt32: TerminalInput] = [
        0o402: .key(.down), 0o403: .key(.up), 0o404: .key(.left), 0o405: .key(.right),
        0o406: .key(.home), 0o407: .key(.backspace), 0o522: .key(.pageDown), 0o523: .key(.pageUp),
        0o527: .key(.enter), 0o541: .key(.backTab), 0o550: .key(.end), 0o632: .resize,
    ]

    /// `code` as returned by get_wch; `isFunctionKey` when it returned KEY_CODE_YES.
    public static func decode(_ code: UInt32, isFunctionKey: Bool) -> TerminalInput? {
        if isFunctionKey { return functionKeys[code] }
        switch code {
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 1...26: return .key(.control(Character(Unicode.Scalar(code + 96)!)))
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }
}
