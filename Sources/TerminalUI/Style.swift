/// The eight ANSI colours plus the terminal's default.
public enum Color: Int, Hashable, Sendable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell looks. Without colour (NO_COLOR, monochrome terminals) the attributes alone
/// must still carry the meaning, so styles that matter set one.
public struct Style: Hashable, Sendable {
    public var foreground: Color?
    public var background: Color?
    public var bold = false
    public var dim = false
    public var reverse = false
    public var underline = false

    public init(
        foreground: Color? = nil, background: Color? = nil, bold: Bool = false, dim: Bool = false,
        reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let dim = Style(dim: true)
    public static let reverse = Style(reverse: true)

    public func with(_ change: (inout Style) -> Void) -> Style {
        var copy = self
        change(&copy)
        return copy
    }

    /// A short code for golden style maps: "." plain, else letters for what is set.
    public var code: Character {
        if self == .plain { return "." }
        if reverse { return "R" }
        switch foreground {
        case .red?: return bold ? "E" : "e"
        case .green?: return bold ? "S" : "s"
        case .yellow?: return bold ? "Y" : "y"
        case .cyan?: return bold ? "C" : "c"
        case .magenta?: return bold ? "M" : "m"
        case .blue?: return bold ? "U" : "u"
        default: break
        }
        if bold { return "B" }
        if dim { return "d" }
        if underline { return "_" }
        return "*"
    }
}
