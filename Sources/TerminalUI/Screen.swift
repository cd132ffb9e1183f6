/// One character cell of the terminal.
public struct Cell: Hashable, Sendable {
    public var character: Character
    public var style: Style

    public init(_ character: Character = " ", style: Style = .plain) {
        self.character = character
        self.style = style
    }

    public static let blank = Cell()
}

/// A grid of styled cells: what views draw into and what a backend shows.
/// Drawing outside the grid is clipped, never an error.
public struct Screen: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { contains(x: x, y: y) ? cells[y * width + x] : .blank }
        set { if contains(x: x, y: y) { cells[y * width + x] = newValue } }
    }

    public func contains(x: Int, y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    /// Writes `text` from (x, y), clipped to `maxWidth` columns (and the screen);
    /// text cut short ends with "…". Returns the column after the last one written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        let limit = min(maxWidth ?? (width - x), width - x)
        guard limit > 0, y >= 0, y < height else { return x }
        let characters = Array(text)
        let fits = characters.count <= limit
        let shown = fits ? characters : Array(characters.prefix(limit - 1)) + ["…"]
        for (offset, character) in shown.enumerated() {
            self[x + offset, y] = Cell(character, style: style)
        }
        return x + shown.count
    }

    /// Writes `text` so it ends at column `right` (exclusive).
    @discardableResult
    public mutating func putRight(_ text: String, right: Int, y: Int, style: Style = .plain) -> Int {
        let start = right - text.count
        put(text, x: start, y: y, style: style)
        return start
    }

    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { self[x, y] = cell }
        }
    }

    /// A box with a title in its top border; returns the inside.
    @discardableResult
    public mutating func box(_ rect: Rect, title: String? = nil, style: Style = .plain, titleStyle: Style = .bold) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        for x in rect.x + 1..<rect.maxX - 1 {
            self[x, rect.y] = Cell("─", style: style)
            self[x, rect.maxY - 1] = Cell("─", style: style)
        }
        for y in rect.y + 1..<rect.maxY - 1 {
            self[rect.x, y] = Cell("│", style: style)
            self[rect.maxX - 1, y] = Cell("│", style: style)
        }
        self[rect.x, rect.y] = Cell("┌", style: style)
        self[rect.maxX - 1, rect.y] = Cell("┐", style: style)
        self[rect.x, rect.maxY - 1] = Cell("└", style: style)
        self[rect.maxX - 1, rect.maxY - 1] = Cell("┘", style: style)
        if let title, rect.width > 6 {
            put(" \(title) ", x: rect.x + 2, y: rect.y, style: titleStyle, maxWidth: rect.width - 4)
        }
        return rect.inset(by: 1)
    }

    /// The screen as plain text, one line per row, trailing spaces trimmed.
    public var text: String {
        (0..<height).map { y in
            var line = String((0..<width).map { self[$0, y].character })
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// One code per cell (see `Style.code`), for golden tests of what is coloured how.
    public var styleMap: String {
        (0..<height).map { y in String((0..<width).map { self[$0, y].style.code }) }.joined(separator: "\n")
    }

    /// The rows that differ from `previous` (all rows when the size changed).
    public func changedRows(since previous: Screen?) -> [Int] {
        guard let previous, previous.width == width, previous.height == height else { return Array(0..<height) }
        return (0..<height).filter { y in
            cells[y * width..<(y + 1) * width] != previous.cells[y * width..<(y + 1) * width]
        }
    }
}

/// A rectangle of cells.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// Splits off the top `rows` rows: (top, rest).
    public func splitTop(_ rows: Int) -> (Rect, Rect) {
        let top = min(rows, height)
        return (Rect(x: x, y: y, width: width, height: top), Rect(x: x, y: y + top, width: width, height: height - top))
    }

    /// Splits off the bottom `rows` rows: (rest, bottom).
    public func splitBottom(_ rows: Int) -> (Rect, Rect) {
        let bottom = min(rows, height)
        return (Rect(x: x, y: y, width: width, height: height - bottom), Rect(x: x, y: maxY - bottom, width: width, height: bottom))
    }

    /// Splits off the left `columns` columns: (left, rest).
    public func splitLeft(_ columns: Int) -> (Rect, Rect) {
        let left = min(columns, width)
        return (Rect(x: x, y: y, width: left, height: height), Rect(x: x + left, y: y, width: width - left, height: height))
    }

    /// A centred rectangle of at most the given size.
    public func centered(width: Int, height: Int) -> Rect {
        let w = min(width, self.width)
        let h = min(height, self.height)
        return Rect(x: x + (self.width - w) / 2, y: y + (self.height - h) / 2, width: w, height: h)
    }
}
