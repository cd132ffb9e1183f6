import Foundation

/// Any JSON value, so a body can be checked field by field and every complaint can name its field
/// (Square's `field`) and say what was expected (`EXPECTED_STRING`, `EXPECTED_INTEGER`, …).
indirect enum SquareJSONValue: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([SquareJSONValue])
    case object([String: SquareJSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SquareJSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SquareJSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// A request body that is a JSON object, read field by field. Absent and `null` fields read as nil.
struct SquareBody {
    /// Deeper nesting than any Square body has is refused before it is parsed.
    static let maxDepth = 16

    let fields: [String: SquareJSONValue]
    /// The dotted path of this object inside the body (`amount_money`), for `field`.
    let path: String

    init(fields: [String: SquareJSONValue], path: String = "") {
        self.fields = fields
        self.path = path
    }

    /// The body as a JSON object; an empty body reads as `{}` when `emptyIsObject`.
    static func parse(_ data: Data, emptyIsObject: Bool = false) throws(SquareRejection) -> SquareBody {
        if emptyIsObject, data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return SquareBody(fields: [:]) }
        guard depth(of: data) <= maxDepth, case .object(let fields)? = try? JSONDecoder().decode(SquareJSONValue.self, from: data) else {
            throw SquareRejection.invalid("EXPECTED_JSON_BODY", "The request body must be a JSON object (nested at most \(maxDepth) levels).")
        }
        return SquareBody(fields: fields)
    }

    /// How deeply arrays and objects nest, outside strings: checked before parsing untrusted input.
    static func depth(of data: Data) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// The body with keys sorted: the same request however it is spaced or ordered.
    var canonical: Data { SquareJSON.data(SquareJSONValue.object(fields)) }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func value(_ key: String) -> SquareJSONValue? {
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
