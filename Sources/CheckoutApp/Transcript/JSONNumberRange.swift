import Foundation

/// Foundation's JSON decoder on Linux reports a number too large for its field as "not valid
/// JSON", naming no field; this finds the number so the message can name it.
enum JSONNumberRange {
    /// The path and text of the first number in `json` that is not a whole number that fits in
    /// 64 bits where one is expected: any whole number beyond Int64, or a fraction or huge value
    /// in a field `wholeFields` names.
    static func firstOutOfRange(in json: Any, wholeFields: Set<String>, path: String = "") -> (path: String, value: String)? {
        switch json {
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if wholeFields.contains(key), let number = object[key] as? NSNumber, !fitsInt32(number) {
                    return (child, number.stringValue)
                }
                if let found = firstOutOfRange(in: object[key] as Any, wholeFields: wholeFields, path: child) { return found }
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = firstOutOfRange(in: element, wholeFields: wholeFields, path: "\(path)[\(index)]") { return found }
            }
        case let number as NSNumber where !(number is Bool):
            let value = number.doubleValue
            if !value.isFinite || (value.rounded() == value && abs(value) >= 9.2e18) { return (path, number.stringValue) }
        default:
            break
        }
        return nil
    }

    private static func fitsInt32(_ number: NSNumber) -> Bool {
        let value = number.doubleValue
        return value.rounded() == value && value >= Double(Int32.min) && value <= Double(Int32.max)
    }
}
