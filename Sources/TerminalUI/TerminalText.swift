/// Text from a file, a provider or the network made safe to print: control characters
/// (C0 but tab, DEL and C1) are written as `\u{1B}`-style escapes, so a transcript or an error
/// body cannot move the cursor, retitle, clear or switch the terminal.
public enum TerminalText {
    public static func escapingControls(_ text: String) -> String {
        var safe = ""
        safe.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                safe += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    /// Each line escaped, the line breaks kept.
    public static func escapingControls(lines text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escapingControls(String($0)) }.joined(separator: "\n")
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}
