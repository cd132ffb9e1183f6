import CheckoutModel
import Foundation

/// What `JSONSerialization` writes with `.sortedKeys` for a body of the plain shape, without it:
/// its key order compares through ICU, four million instructions an Adyen checkout. Fingerprints
/// kept in a shared store must stay byte for byte what every instance writes, so anything whose
/// bytes this cannot promise gives nil and JSONSerialization writes it: keys other than ASCII
/// letters (its order for digits and punctuation is the locale's), two keys alike but for case,
/// strings beyond printable ASCII or with escapes, fractions, `-0`. Tests and the AdyenWire fuzz
/// target hold the two to the same bytes.
enum AdyenSortedJSON {
    static let maxDepth = 32

    static func sortedKeys(_ body: Data) -> Data? {
        body.withUnsafeBytes { raw in
            var reader = PlainJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            var written: [UInt8] = []
            // JSONSerialization reads only an object or an array at the top.
            guard reader.next == UInt8(ascii: "{") || reader.next == UInt8(ascii: "["),
                reader.writeSorted(into: &written, depth: 0), reader.atEnd
            else { return nil }
            return Data(written)
        }
    }
}

extension PlainJSONReader {
    fileprivate mutating func writeSorted(into written: inout [UInt8], depth: Int) -> Bool {
        guard depth < AdyenSortedJSON.maxDepth, let next else { return false }
        switch next {
        case UInt8(ascii: "{"): return writeSortedObject(into: &written, depth: depth)
        case UInt8(ascii: "["):
            written.append(UInt8(ascii: "["))
            var first = true
            let elements = array { reader -> Bool? in
                if !first { written.append(UInt8(ascii: ",")) }
                first = false
                return reader.writeSorted(into: &written, depth: depth + 1) ? true : nil
            }
            written.append(UInt8(ascii: "]"))
            return elements != nil
        case UInt8(ascii: "\""):
            guard let text = string(), Self.isPrintableASCII(text) else { return false }
            Self.writeString(text, into: &written)
            return true
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for word: StaticString in ["true", "false", "null"] where literal(word) {
                written.append(contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
                return true
            }
            return false
        default:
            let negative = take(UInt8(ascii: "-"))
            // JSONSerialization writes -0 as 0.
            guard let value = integer(), !(negative && value == 0) else { return false }
            written.append(contentsOf: ((negative ? "-" : "") + String(value)).utf8)
            return true
        }
    }

    private mutating func writeSortedObject(into written: inout [UInt8], depth: Int) -> Bool {
        var read: [(key: String, value: [UInt8])] = []
        let readAll = object { key, reader in
            guard AdyenSortedJSON.isLetters(key) else { return false }
            var value: [UInt8] = []
            guard reader.writeSorted(into: &value, depth: depth + 1) else { return false }
            read.append((key, value))
            return true
        }
        guard readAll, let members = SerializedKeyOrder.sorted(read, key: \.key) else { return false }
        written.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { written.append(UInt8(ascii: ",")) }
            Self.writeString(member.key, into: &written)
            written.append(UInt8(ascii: ":"))
            written.append(contentsOf: member.value)
        }
        written.append(UInt8(ascii: "}"))
        return true
    }

    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// A string of printable ASCII without quotes or backslashes, as JSONSerialization writes it:
    /// quoted, with each slash escaped.
    private static func writeString(_ text: String, into written: inout [UInt8]) {
        written.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "/") { written.append(UInt8(ascii: "\\")) }
            written.append(byte)
        }
        written.append(UInt8(ascii: "\""))
    }
}

extension AdyenSortedJSON {
    /// Keys of ASCII letters only: their order ignoring case is the same in every locale.
    static func isLetters(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}
