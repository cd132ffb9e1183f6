/// Help text laid out for an 80-column terminal.
public enum HelpText {
    /// The widest line ArgumentParser leaves as it is in a discussion: at 80 columns it wraps a
    /// full line again, stranding its last word unindented on the next.
    public static let columns = 79

    /// `text`'s words, one space apart, in lines of at most `width` characters (a longer word
    /// stands alone). Works on UTF-8 bytes, counting characters as scalars: every command's help
    /// is built when a command line is parsed, and grapheme by grapheme it cost a tenth of a
    /// headless checkout.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line: [UInt8] = []
        var lineLength = 0
        for word in text.utf8.split(separator: 0x20) {
            let wordLength = word.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
            if !line.isEmpty, lineLength + 1 + wordLength > width {
                lines.append(String(decoding: line, as: UTF8.self))
                line.removeAll(keepingCapacity: true)
                lineLength = 0
            }
            if !line.isEmpty {
                line.append(0x20)
                lineLength += 1
            }
            line += word
            lineLength += wordLength
        }
        if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }
}
