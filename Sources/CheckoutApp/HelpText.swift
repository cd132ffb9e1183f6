/// Help text laid out for an 80-column terminal.
public enum HelpText {
    /// The widest line ArgumentParser leaves as it is in a discussion: at 80 columns it wraps a
    /// full line again, stranding its last word unindented on the next.
    public static let columns = 79

    /// `text`'s words, one space apart, in lines of at most `width` characters (a longer word
    /// stands alone). Works on UTF-8 bytes in one pass, counting characters as scalars: every
    /// command's help is built when a command line is parsed (`checkout run` wraps about 75
    /// texts before it starts), and grapheme by grapheme, then word by word as substrings, that
    /// was a tenth, then a fiftieth, of a headless checkout.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var lines: [String] = []
            var line: [UInt8] = []
            line.reserveCapacity(max(0, width) + 8)
            var lineLength = 0
            var index = 0
            while index < bytes.count {
                guard bytes[index] != 0x20 else {
                    index += 1
                    continue
                }
                let start = index
                var wordLength = 0
                while index < bytes.count, bytes[index] != 0x20 {
                    if bytes[index] & 0xC0 != 0x80 { wordLength += 1 }
                    index += 1
                }
                if !line.isEmpty, lineLength + 1 + wordLength > width {
                    lines.append(String(decoding: line, as: UTF8.self))
                    line.removeAll(keepingCapacity: true)
                    lineLength = 0
                }
                if !line.isEmpty {
                    line.append(0x20)
                    lineLength += 1
                }
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                lineLength += wordLength
            }
            if !line.isEmpty { lines.append(String(decoding: line, as: UTF8.self)) }
            return lines
        }
    }
}
