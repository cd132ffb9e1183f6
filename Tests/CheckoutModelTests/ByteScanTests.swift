import CheckoutModel
import Testing

/// The word-at-a-time scans against the byte-by-byte definitions they stand in for: every byte
/// value at every place in and after a word, then random text.
@Suite struct ByteScanTests {
    static func naiveJSONEscape(_ bytes: [UInt8], from start: Int, slash: Bool) -> Int {
        bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || (slash && $0 == 0x2F) } ?? bytes.count
    }

    static func naiveNonPrintable(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex { $0 < 0x20 || $0 > 0x7E } ?? bytes.count
    }

    /// Runs of a printable letter 0–19 bytes long with one byte of every value planted at each place.
    static var planted: [[UInt8]] {
        var cases: [[UInt8]] = []
        for length in 1..<20 {
            for place in 0..<length {
                for value in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[place] = value
                    cases.append(bytes)
                }
            }
        }
        return cases
    }

    static var random: [[UInt8]] {
        var generator = SeededBytes(seed: 0x5EED)
        return (0..<4_000).map { index in (0..<(index % 70)).map { _ in generator.nextByte(skewedTo: index % 3 == 0) } }
    }

    @Test func theJSONScanFindsWhatTheByteLoopFinds() {
        for bytes in Self.planted + Self.random + [[]] {
            for slash in [false, true] {
                for start in [0, min(3, bytes.count), bytes.count] {
                    let found = bytes.withUnsafeBufferPointer { ByteScan.firstJSONEscape(in: $0, from: start, slash: slash) }
                    #expect(found == Self.naiveJSONEscape(bytes, from: start, slash: slash), "\(bytes) from \(start) slash \(slash)")
                }
            }
        }
    }

    @Test func thePrintableScanFindsWhatTheByteLoopFinds() {
        for bytes in Self.planted + Self.random + [[]] {
            for start in [0, min(5, bytes.count)] {
                let found = bytes.withUnsafeBufferPointer { ByteScan.firstNonPrintableASCII(in: $0, from: start) }
                #expect(found == Self.naiveNonPrintable(bytes, from: start), "\(bytes) from \(start)")
            }
        }
    }

    @Test func asciiAndByteSearchAgreeWithTheByteLoop() {
        for bytes in Self.planted + Self.random {
            #expect(bytes.withUnsafeBufferPointer { ByteScan.isASCII($0) } == bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
            let text = String(decoding: bytes, as: UTF8.self)
            let utf8 = Array(text.utf8)
            #expect(ByteScan.isASCII(text) == utf8.allSatisfy { $0 < 0x80 })
            #expect(ByteScan.firstOffset(of: UInt8(ascii: "?"), in: text) == utf8.firstIndex(of: UInt8(ascii: "?")), "\(text)")
        }
    }

    @Test func containsFindsWhatAByteSearchFinds() {
        let texts = Self.random.map { String(decoding: $0, as: UTF8.self) } + ["", "abc", "ababab", "Café au lait"]
        let needles = ["", "a", "ab", "aba", "é", "lait", "zz", String(decoding: [0xFF], as: UTF8.self)]
        for text in texts {
            for needle in needles + [String(text.prefix(3)), String(text.suffix(2))] {
                let haystack = Array(text.utf8), wanted = Array(needle.utf8)
                let expected = wanted.isEmpty
                    || (haystack.count >= wanted.count && (0...(haystack.count - wanted.count)).contains { Array(haystack[$0..<$0 + wanted.count]) == wanted })
                #expect(ByteScan.contains(text, needle) == expected, "\(text.debugDescription) \(needle.debugDescription)")
            }
        }
    }

    @Test func displaySafetyKeepsItsRule() {
        let rule = { (text: String, lineFeeds: Bool) in
            text.utf8.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 || (lineFeeds && $0 == 0x0A) }
        }
        for bytes in Self.random + [Array("plain line\twith a tab\nand a second".utf8), Array("bell\u{7}".utf8), []] {
            let text = String(decoding: bytes, as: UTF8.self)
            for lineFeeds in [false, true] {
                #expect(DisplaySafety.isPrintableASCII(text, lineFeeds: lineFeeds) == rule(text, lineFeeds), "\(text.debugDescription)")
            }
        }
    }
}

/// Deterministic bytes: mostly printable ASCII when skewed, so long clean runs occur.
private struct SeededBytes {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func nextByte(skewedTo printable: Bool) -> UInt8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let value = UInt8(truncatingIfNeeded: state >> 33)
        guard printable else { return value }
        return value % 16 == 0 ? value : 0x20 + value % 0x5F
    }
}
