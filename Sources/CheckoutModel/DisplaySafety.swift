/// Characters that must never reach a terminal as they are from outside text (a transcript, a
/// provider's answer, an SDK's log line): C0 controls but tab, DEL and C1 (they move the
/// cursor, retitle, clear), and the invisible bidirectional formatting characters (marks,
/// embeddings, overrides, isolates), which can make a line read other than it is.
public enum DisplaySafety {
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with each unsafe character written as a `\u{…}` escape.
    public static func escaping(_ text: String) -> String {
        if isPrintableASCII(text, lineFeeds: false) { return text }
        var safe = ""
        safe.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                safe += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    /// Whether `text` is printable ASCII, tabs and (with `lineFeeds`) line feeds alone, so that
    /// escaping would change nothing: most text (an access log's lines) is, and is passed on as it is.
    public static func isPrintableASCII(_ text: String, lineFeeds: Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while true {
                index = ByteScan.firstNonPrintableASCII(in: bytes, from: index)
                guard index < bytes.count else { return true }
                guard bytes[index] == 0x09 || (lineFeeds && bytes[index] == 0x0A) else { return false }
                index += 1
            }
        }
    }
}
