/// The system clipboard through the terminal: OSC 52, which iTerm2, kitty, WezTerm, foot,
/// Windows Terminal, xterm (when allowed) and tmux (`set -g set-clipboard on`) understand, over SSH too.
public enum Clipboard {
    /// `ESC ] 52 ; c ; BASE64 BEL`: the text travels base64-encoded, so none of its bytes can
    /// act on the terminal.
    public static func osc52(_ text: String) -> String {
        "\u{1B}]52;c;" + base64(Array(text.utf8)) + "\u{07}"
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 with padding (RFC 4648); TerminalUI stays free of Foundation.
    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[Int(value >> (18 - 6 * UInt32(position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
