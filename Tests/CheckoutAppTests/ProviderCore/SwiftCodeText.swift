/// Swift source with its comments and string literals blanked (newlines kept, so line numbers
/// hold): what is left is the code that names things. An interpolation's code stays code.
enum SwiftCodeText {
    static func lines(of source: String) -> [Substring] {
        String(decoding: blanked(Array(source.utf8)), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// What the reader is inside: code (an interpolation's, with its open parentheses) or a string literal.
    private enum Context {
        case code(parentheses: Int)
        case string(hashes: Int, multiline: Bool)
    }

    private static let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
    private static let backslash = UInt8(ascii: "\\"), open = UInt8(ascii: "("), close = UInt8(ascii: ")"), newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")

    static func blanked(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var stack: [Context] = [.code(parentheses: 0)]
        var index = 0
        func blank(_ range: Range<Int>) {
            for position in range where out[position] != newline { out[position] = space }
        }
        func matches(_ text: [UInt8], at position: Int) -> Bool {
            position + text.count <= bytes.count && bytes[position..<(position + text.count)].elementsEqual(text)
        }
        func byte(_ position: Int) -> UInt8? { position < bytes.count ? bytes[position] : nil }
        while index < bytes.count {
            switch stack[stack.count - 1] {
            case .code(let parentheses):
                if bytes[index] == slash, byte(index + 1) == slash {
                    let end = bytes[index...].firstIndex(of: newline) ?? bytes.count
                    blank(index..<end)
                    index = end
                } else if bytes[index] == slash, byte(index + 1) == star {
                    var depth = 0, end = index
                    repeat {
                        if matches([slash, star], at: end) { depth += 1; end += 2 } else if matches([star, slash], at: end) { depth -= 1; end += 2 } else { end += 1 }
                    } while depth > 0 && end < bytes.count
                    blank(index..<end)
                    index = end
                } else if bytes[index] == hash || bytes[index] == quote {
                    var hashes = 0
                    while index + hashes < bytes.count, bytes[index + hashes] == hash { hashes += 1 }
                    guard matches([quote], at: index + hashes) else {
                        index += hashes
                        continue
                    }
                    let multiline = matches([quote, quote, quote], at: index + hashes)
                    let length = hashes + (multiline ? 3 : 1)
                    blank(index..<(index + length))
                    stack.append(.string(hashes: hashes, multiline: multiline))
                    index += length
                } else if bytes[index] == open {
                    stack[stack.count - 1] = .code(parentheses: parentheses + 1)
                    index += 1
                } else if bytes[index] == close, parentheses == 0, stack.count > 1 {
                    // The end of an interpolation: back into its string.
                    stack.removeLast()
                    blank(index..<(index + 1))
                    index += 1
                } else {
                    if bytes[index] == close { stack[stack.count - 1] = .code(parentheses: parentheses - 1) }
                    index += 1
                }
            case .string(let hashes, let multiline):
                guard bytes[index] == backslash || bytes[index] == quote else {
                    blank(index..<(index + 1))
                    index += 1
                    continue
                }
                let delimiter = [UInt8](repeating: quote, count: multiline ? 3 : 1) + [UInt8](repeating: hash, count: hashes)
                let escape = [backslash] + [UInt8](repeating: hash, count: hashes)
                if matches(escape + [open], at: index) {
                    blank(index..<(index + escape.count + 1))
                    stack.append(.code(parentheses: 0))
                    index += escape.count + 1
                } else if matches(escape, at: index) {
                    let end = min(index + escape.count + 1, bytes.count)
                    blank(index..<end)
                    index = end
                } else if matches(delimiter, at: index) {
                    blank(index..<(index + delimiter.count))
                    stack.removeLast()
                    index += delimiter.count
                } else {
                    blank(index..<(index + 1))
                    index += 1
                }
            }
        }
        return out
    }
}
