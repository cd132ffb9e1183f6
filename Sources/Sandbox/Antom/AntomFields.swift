import Foundation
import ProviderWire

/// A request body that is a JSON object, read field by field; every complaint is PARAM_ILLEGAL
/// naming the field (dotted: `paymentAmount.value`) and what it allows. Absent and `null` read as nil.
/// The JSON values are the sandbox's generic ones (`JSONValue`, shared with Square's reader).
struct AntomFields {
    /// Deeper nesting than any Antom body has is refused before it is parsed.
    static let maxDepth = 16

    let fields: [String: JSONValue]
    let path: String

    init(fields: [String: JSONValue], path: String = "") {
        self.fields = fields
        self.path = path
    }

    static func parse(_ data: Data) throws(AntomRejection) -> AntomFields {
        guard JSONValue.depth(of: data) <= maxDepth, case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw AntomRejection.illegal("The request body must be a JSON object (nested at most \(maxDepth) levels).")
        }
        return AntomFields(fields: fields)
    }

    /// The body with keys sorted and no spacing: the same request however it was printed (the
    /// Python SDK indents its bodies).
    var canonical: Data { AntomJSON.data(JSONValue.object(fields)) }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func value(_ key: String) -> JSONValue? {
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    /// A string of `length` characters; `plain` refuses control characters (ids shown on pages and used as keys).
    func string(_ key: String, length: ClosedRange<Int>, plain: Bool = true) throws(AntomRejection) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw AntomRejection.illegal("\(name(key)) must be a string.") }
        guard length.contains(text.count) else {
            throw AntomRejection.illegal("\(name(key)) must be \(length.lowerBound)–\(length.upperBound) characters long; it is \(text.count).")
        }
        if plain, text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw AntomRejection.illegal("\(name(key)) must not contain control characters.")
        }
        return text
    }

    func required(_ key: String, length: ClosedRange<Int>, plain: Bool = true) throws(AntomRejection) -> String {
        guard let text = try string(key, length: length, plain: plain) else { throw AntomRejection.illegal("\(name(key)) is required.") }
        return text
    }

    /// A required string that must be one of `allowed`.
    func oneOf(_ key: String, _ allowed: [String]) throws(AntomRejection) -> String {
        let text = try string(key, length: 0...64)
        guard let text, allowed.contains(text) else {
            let got = text.map { " (got \"\($0)\")" } ?? ""
            throw AntomRejection.illegal("\(name(key)) must be \(allowed.joined(separator: " or "))\(got).")
        }
        return text
    }

    func object(_ key: String) throws(AntomRejection) -> AntomFields? {
        guard let value = value(key) else { return nil }
        guard case .object(let fields) = value else { throw AntomRejection.illegal("\(name(key)) must be an object.") }
        return AntomFields(fields: fields, path: name(key))
    }

    func requiredObject(_ key: String) throws(AntomRejection) -> AntomFields {
        guard let object = try object(key) else { throw AntomRejection.illegal("\(name(key)) is required.") }
        return object
    }

    /// A JSON object as text: Antom's `paymentMethodMetaData` is an object (the official SDK sends
    /// a dict), and this tool's clients send it as a JSON string; either reads as the string.
    func metaData(_ key: String) throws(AntomRejection) -> String? {
        guard let value = value(key) else { return nil }
        switch value {
        case .object: break
        case .string(let text) where text.utf8.count <= 1_024: return text
        default: throw AntomRejection.illegal("\(name(key)) must be an object, or a JSON string of one, of at most 1024 characters.")
        }
        let text = String(decoding: AntomJSON.data(value), as: UTF8.self)
        guard text.utf8.count <= 1_024 else { throw AntomRejection.illegal("\(name(key)) must be at most 1024 characters of JSON.") }
        return text
    }

    /// `{currency, value}`: value a string of minor units (> 0 when `positive`), currency three capital letters.
    func amount(_ key: String, positive: Bool) throws(AntomRejection) -> AntomAmount {
        let amount = try requiredObject(key)
        let currency = try amount.required("currency", length: 3...3)
        guard currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw AntomRejection.illegal("\(amount.name("currency")) must be an ISO 4217 code in capitals (USD, THB, IDR); got \"\(currency)\".")
        }
        let value = try amount.required("value", length: 1...18)
        let parsed = AntomAmount(currency: currency, value: value)
        guard let minor = parsed.minorUnits, minor <= SandboxLimits.maxAmountMinorUnits, !positive || minor > 0 else {
            throw AntomRejection.illegal(
                "\(amount.name("value")) must be a string of digits\(positive ? " greater than 0" : ""), in minor units, at most "
                    + "\(SandboxLimits.maxAmountMinorUnits) (e.g. \"129000\" for 1290.00); got \"\(value)\".")
        }
        return parsed
    }
}
