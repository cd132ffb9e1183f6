import CheckoutModel
import Foundation

/// A JSON text being written, members in the encoder's sorted key order (fixed by the callers: the
/// keys' byte order; the tests against the encoder hold them to it). Each writer says false when
/// it met something it leaves to the encoder.
package struct JSONBytes {
    /// How the encoder it stands in for writes what differs between them.
    package enum Convention: Sendable {
        /// `CashAppJSON.encoder()`: slashes as they are, dates as ISO 8601 to the millisecond.
        case wire
        /// A sandbox store's encoder: slashes escaped (`\/`), dates as seconds since 2001.
        case stored
        /// JSONSerialization with `.withoutEscapingSlashes` (`checkout run --json`): quotes,
        /// backslashes and controls escaped, slashes as they are; no dates.
        case serialized
    }

    package private(set) var bytes: [UInt8] = []
    private var needsComma = false
    private let convention: Convention

    package init(_ convention: Convention = .wire) {
        self.convention = convention
        bytes.reserveCapacity(1024)
    }

    package mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    package mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// `"key":` (after a comma when a member came before).
    package mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A string: under `.wire` declined (false) when it holds a quote, a backslash or a control
    /// character; otherwise those escaped as the encoder escapes them (under `.stored` slashes too).
    package mutating func string(_ text: String) -> Bool {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        let slash = convention == .stored
        let written = text.withUTF8 { utf8 in
            // Runs between the bytes to escape are copied whole.
            var start = 0
            while true {
                let index = ByteScan.firstJSONEscape(in: utf8, from: start, slash: slash)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                guard index < utf8.count else { return true }
                guard convention != .wire else { return false }
                escape(utf8[index])
                start = index + 1
            }
        }
        guard written else { return false }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
        return true
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case ..<0x20:
            for digit in [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)]] {
                bytes.append(digit)
            }
        default: bytes.append(byte)  // a quote, a backslash or a slash
        }
    }

    package mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// As the encoder writes a finite `Double`: its shortest form, without a trailing ".0". False
    /// for one that is not finite (the encoder's strategy decides those).
    package mutating func number(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
        return true
    }

    package mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    package mutating func date(_ value: Date) -> Bool {
        switch convention {
        case .wire: isoDate(value)
        case .stored: number(value.timeIntervalSinceReferenceDate)
        case .serialized: false
        }
    }

    /// `"2022-10-20T20:16:18.051Z"`: its digits written straight in (the stamp holds nothing to escape).
    private mutating func isoDate(_ value: Date) -> Bool {
        bytes.append(UInt8(ascii: "\""))
        ISO8601Milliseconds.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
        return true
    }

    package mutating func null() {
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    package mutating func array<Element>(_ elements: [Element], _ write: (inout JSONBytes, Element) -> Bool) -> Bool {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard write(&self, element) else { return false }
        }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
        return true
    }

    /// `"name":` for a key known only at run time; false where `string` declines it.
    package mutating func key(named name: String) -> Bool {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        guard string(name) else { return false }
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
        return true
    }
}
