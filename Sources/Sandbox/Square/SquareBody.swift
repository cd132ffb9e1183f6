import Foundation
import ProviderWire


/// A request body that is a JSON object, read field by field. Absent and `null` fields read as nil.
struct SquareBody {
    /// Deeper nesting than any Square body has is refused before it is parsed.
    static let maxDepth = 16

    let fields: [String: JSONValue]
    /// The dotted path of this object inside the body (`amount_money`), for `field`.
    let path: String

    init(fields: [String: JSONValue], path: String = "") {
        self.fields = fields
        self.path = path
    }

    /// The body as a JSON object; an empty body reads as `{}` when `emptyIsObject`.
    static func parse(_ data: Data, emptyIsObject: Bool = false) throws(SquareRejection) -> SquareBody {
        if emptyIsObject, data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return SquareBody(fields: [:]) }
        guard JSONValue.depth(of: data) <= maxDepth, case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw SquareRejection.invalid("EXPECTED_JSON_BODY", "The request body must be a JSON object (nested at most \(maxDepth) levels).")
        }
        return SquareBody(fields: fields)
    }

    /// The body with keys sorted: the same request however it is spaced or ordered.
    var canonical: Data { SquareJSON.data(JSONValue.object(fields)) }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func value(_ key: String) -> JSONValue? {
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(SquareRejection) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw SquareRejection.invalid("EXPECTED_STRING", "Expected a string value.", field: name(key)) }
        return text
    }

    /// A string of `range` UTF-8 bytes (Square counts bytes: multi-byte characters allow fewer).
    func string(_ key: String, bytes range: ClosedRange<Int>) throws(SquareRejection) -> String? {
        guard let text = try string(key) else { return nil }
        let count = text.utf8.count
        if count < range.lowerBound {
            throw SquareRejection.invalid(
                "VALUE_TOO_SHORT", "Field must be at least \(range.lowerBound) character\(range.lowerBound == 1 ? "" : "s") long.", field: name(key))
        }
        if count > range.upperBound {
            throw SquareRejection.invalid("VALUE_TOO_LONG", "Field must not be longer than \(range.upperBound) characters.", field: name(key))
        }
        return text
    }

    func requiredString(_ key: String, bytes range: ClosedRange<Int>) throws(SquareRejection) -> String {
        guard let text = try string(key, bytes: range) else { throw SquareRejection.missing(name(key)) }
        return text
    }

    func bool(_ key: String) throws(SquareRejection) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw SquareRejection.invalid("EXPECTED_BOOLEAN", "Expected a boolean value.", field: name(key)) }
        return flag
    }

    func integer(_ key: String) throws(SquareRejection) -> Int64? {
        guard let value = value(key) else { return nil }
        switch value {
        case .integer(let number): return number
        case .number(let number) where number.rounded() == number && abs(number) < 9e15: return Int64(number)
        default: throw SquareRejection.invalid("EXPECTED_INTEGER", "Expected an integer value.", field: name(key))
        }
    }

    func object(_ key: String) throws(SquareRejection) -> SquareBody? {
        guard let value = value(key) else { return nil }
        guard case .object(let fields) = value else { throw SquareRejection.invalid("EXPECTED_OBJECT", "Expected an object.", field: name(key)) }
        return SquareBody(fields: fields, path: name(key))
    }
}
