import Foundation

/// The JSON of a `checkout run` line, written directly for the values those lines hold (text,
/// whole numbers, true and false, null, lists and objects with snake_case keys), byte for byte
/// what JSONSerialization writes with sorted keys and unescaped slashes. JSONSerialization
/// bridges each value to an Objective-C object and asks the runtime what it is: on a headless run
/// that was a tenth of the time. Anything else answers nil, and JSONLine falls back to it.
enum JSONLineWriter {
    static func encode(_ object: [String: Any]) -> String? {
        var output = ""
        return write(object, into: &output) ? output : nil
    }

    /// Dispatched on the value's exact type, never by a cast: casting a dictionary to a class
    /// (NSNull) bridges it to an NSDictionary first, and an NSNumber casts to Int and Bool alike.
    private static func write(_ value: Any, into output: inout String) -> Bool {
        let kind = type(of: value)
        if kind == String.self {
            writeString(value as! String, into: &output)
        } else if kind == Int.self {
            output += String(value as! Int)
        } else if kind == Bool.self {
            output += value as! Bool ? "true" : "false"
        } else if kind == NSNull.self {
            output += "null"
        } else if kind == [String].self {
            output += "["
            for (index, text) in (value as! [String]).enumerated() {
                if index > 0 { output += "," }
                writeString(text, into: &output)
            }
            output += "]"
        } else if kind == [Any].self {
            output += "["
            for (index, element) in (value as! [Any]).enumerated() {
                if index > 0 { output += "," }
                guard write(element, into: &output) else { return false }
            }
            output += "]"
        } else if kind == [String: String].self {
            return writeObject((value as! [String: String]).mapValues { $0 as Any }, into: &output)
        } else if kind == [String: Any].self {
            return writeObject(value as! [String: Any], into: &output)
        } else {
            return false
        }
        return true
    }

    private static func writeObject(_ object: [String: Any], into output: inout String) -> Bool {
        // JSONSerialization sorts keys by a localized, case-insensitive, numeric comparison; for
        // keys of lower-case ASCII letters and underscores that is plain byte order.
        guard object.keys.allSatisfy(isPlainKey) else { return false }
        output += "{"
        for (index, key) in object.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if index > 0 { output += "," }
            writeString(key, into: &output)
            output += ":"
            guard let value = object[key], write(value, into: &output) else { return false }
        }
        output += "}"
        return true
    }

    private static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "_") }
    }

    /// As JSONSerialization escapes: quote, backslash, and C0 controls (the common five by name).
    private static func writeString(_ text: String, into output: inout String) {
        output += "\""
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
