/// A scenario file that cannot be used: where (file, line, column, field) and what is wrong.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    /// From 1; 0 when the whole file is meant (it could not be read).
    public let line: Int
    public let column: Int
    /// The field's path, e.g. `cart[1].price`; empty for syntax errors.
    public let field: String
    public let problem: String

    public init(file: String, line: Int, column: Int, field: String, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.problem = problem
    }

    /// `scenarios/x.yaml:7:12: cart[1].price: "abc" is not an amount …`, as compilers print.
    public var description: String {
        let named = file.isEmpty ? "\"\"" : file
        let place = line > 0 ? "\(named):\(line):\(column)" : named
        return field.isEmpty ? "\(place): \(problem)" : "\(place): \(field): \(problem)"
    }
}
