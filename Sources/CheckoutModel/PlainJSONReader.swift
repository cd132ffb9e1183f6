/// A cursor over JSON bytes of the plain shape our own writers and clients produce: strings
/// without escapes, non-negative integers, objects without repeated keys. Each read gives nil
/// (or false) at anything else, so the caller hands the bytes to JSONDecoder, which decides,
/// errors and all. Fast readers built on it (a sandbox create body, the bundled catalog, Adyen's
/// sorted fingerprint) are tested to read what JSONDecoder (or JSONSerialization) reads.
package struct PlainJSONReader {
    /// More keys than this in one object is not the plain shape (and keeps the repeat check small).
    package static let maxKeys = 32
    package static let maxElements = 64

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next byte after any whitespace, not taken; nil at the end.
    package var next: UInt8? {
        mutating get {
            skipSpace()
            return index < bytes.count ? bytes[index] : nil
        }
    }

    /// Whether only whitespace is left.
    package var atEnd: Bool {
        mutating get {
            skipSpace()
            return index == bytes.count
        }
    }

    /// `{ "name": value, … }`, each value read by `field`; false when any key repeats or `field` says no.
    package mutating func object(_ field: (String, inout PlainJSONReader) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        var names: [String] = []
        repeat {
            guard names.count < Self.maxKeys, let name = string(), !names.contains(name), take(UInt8(ascii: ":")) else { return false }
            names.append(name)
            guard field(name, &self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    package mutating func array<Element>(_ element: (inout PlainJSONReader) -> Element?) -> [Element]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if take(UInt8(ascii: "]")) { return elements }
        repeat {
            guard elements.count < Self.maxElements, let next = element(&self) else { return nil }
            elements.append(next)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? elements : nil
    }

    /// `null` leaves `value` nil, as JSONDecoder's decodeIfPresent does; false when neither reads.
    package mutating func optional<Value>(_ value: inout Value?, _ read: (inout PlainJSONReader) -> Value?) -> Bool {
        if literal("null") {
            value = nil
            return true
        }
        value = read(&self)
        return value != nil
    }

    /// A string with no escapes and no control characters, in valid UTF-8.
    package mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        index = ByteScan.firstJSONEscape(in: bytes, from: start, slash: false)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        defer { index += 1 }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // ASCII needs no validating (the standard library's validating initializer is generic, unspecialized).
        return ByteScan.isASCII(text) ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
    }

    /// A non-negative integer without fraction or exponent, of at most 18 digits (so it never overflows).
    package mutating func integer() -> Int? {
        skipSpace()
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            guard index - start < 18 else { return nil }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        return value
    }

    package mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// Skips whitespace, then takes `byte` if it is next.
    package mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    package mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }
}
