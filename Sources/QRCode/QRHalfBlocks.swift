/// Draws a QR code in a terminal with Unicode half blocks.
///
/// Terminal cells are about twice as tall as wide, so one character per module would
/// stretch the code vertically; packing two rows into each character keeps modules square
/// and halves the height. Dark modules are glyph ink, so draw the lines dark-on-light
/// (set the colours explicitly): on a dark terminal theme the code would show inverted,
/// which many phone scanners refuse.
public enum QRHalfBlocks {
    /// Each glyph covers (top module, bottom module) of one column.
    private static func glyph(top: Bool, bottom: Bool) -> Character {
        switch (top, bottom) {
        case (false, false): " "
        case (true, false): "▀"
        case (false, true): "▄"
        case (true, true): "█"
        }
    }

    /// The code plus `margin` light modules on every side, one string per character row.
    /// Character row k covers module rows 2k and 2k+1 (quiet zone included); an odd total
    /// height gets a light row appended at the bottom.
    public static func lines(_ code: QRCode, margin: Int = 2) -> [String] {
        let margin = max(0, margin)
        let (width, height) = size(for: code, margin: margin)
        return (0..<height).map { line in
            // Reading past the matrix yields light modules, which is the quiet zone.
            let top = 2 * line - margin
            let bottom = top + 1
            return String((0..<width).map { column in
                let x = column - margin
                return glyph(top: code[x, top], bottom: code[x, bottom])
            })
        }
    }

    /// Characters needed for `lines(code, margin:)`: width per line and number of lines.
    public static func size(for code: QRCode, margin: Int = 2) -> (width: Int, height: Int) {
        let side = code.size + 2 * max(0, margin)
        return (side, (side + 1) / 2)
    }

    /// Inverse of `lines`: two module rows per line (true = dark), quiet zone and any
    /// padding row included. Characters other than the four glyphs read as light.
    public static func modules(from lines: [String]) -> [[Bool]] {
        lines.flatMap { line -> [[Bool]] in
            let pairs = line.map { character -> (Bool, Bool) in
                switch character {
                case "▀": (true, false)
                case "▄": (false, true)
                case "█": (true, true)
                default: (false, false)
                }
            }
            return [pairs.map(\.0), pairs.map(\.1)]
        }
    }
}
