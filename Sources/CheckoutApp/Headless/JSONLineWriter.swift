import CheckoutModel
import Foundation
import ProviderWire

/// The JSON of a `checkout run` line, written directly for the values those lines hold (text,
/// whole numbers, true and false, null, lists and objects with keys of letters, digits and
/// underscores), byte for byte what JSONSerialization writes with sorted keys and unescaped
/// slashes (`JSONBytes`'s `.serialized` convention). JSONSerialization bridges each value to an
/// Objective-C object and asks the runtime what it is: on a headless run that was a tenth of the
/// time; its sorted keys also have ICU read locale data. Anything else answers nil, and
/// JSONLine falls back to it.
enum JSONLineWriter {
    static func encode(_ object: [String: Any]) -> String? {
        var json = JSONBytes(.serialized)
        guard writeObject(object, into: &json) else { return nil }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// Dispatched on the value's exact type, never by a cast: casting a dictionary to a class
    /// (NSNull) bridges it to an NSDictionary first, and an NSNumber casts to Int and Bool alike.
    private static func write(_ value: Any, into json: inout JSONBytes) -> Bool {
        let kind = type(of: value)
        if kind == String.self {
            return json.string(value as! String)
        } else if kind == Int.self {
            json.number(value as! Int)
        } else if kind == Bool.self {
            json.bool(value as! Bool)
        } else if kind == NSNull.self {
            json.null()
        } else if kind == [String].self {
            return json.array(value as! [String]) { json, text in json.string(text) }
        } else if kind == [Any].self {
            return json.array(value as! [Any]) { json, element in write(element, into: &json) }
        } else if kind == [[String: String]].self {
            // A notice's lists (the wallet's summary items).
            return json.array(value as! [[String: String]]) { json, element in writeObject(element.mapValues { $0 as Any }, into: &json) }
        } else if kind == [String: String].self {
            return writeObject((value as! [String: String]).mapValues { $0 as Any }, into: &json)
        } else if kind == [String: Any].self {
            return writeObject(value as! [String: Any], into: &json)
        } else {
            return false
        }
        return true
    }

    private static func writeObject(_ object: [String: Any], into json: inout JSONBytes) -> Bool {
        // Keys of ASCII letters, digits and underscores (an SDK's camelCase parameters, Antom's
        // paymentRequestId, Square's last_4) in JSONSerialization's order.
        guard object.keys.allSatisfy(isPlainKey), let keys = SerializedKeyOrder.sorted(Array(object.keys), key: { $0 }) else { return false }
        json.open()
        for key in keys {
            guard json.key(named: key), let value = object[key], write(value, into: &json) else { return false }
        }
        json.close()
        return true
    }

    private static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") }
    }
}
