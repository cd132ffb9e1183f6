import Foundation  // the C library's memchr and memcmp, on every platform

/// Scans of UTF-8 bytes eight at a time (one 64-bit word, SWAR): the sandbox runs them over every
/// request's JSON and access-log line, where a byte-by-byte loop through the standard library's
/// generic views cost more than the rest of the work on those bytes.
package enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// High bit set in each byte of `word` below `limit` (at most 0x80); lower bits of a byte
    /// after a hit may be wrong, so callers only ask whether any bit is set.
    @inline(__always)
    private static func below(_ limit: UInt8, _ word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    @inline(__always)
    private static func equal(_ byte: UInt8, _ word: UInt64) -> UInt64 {
        below(1, word ^ (ones &* UInt64(byte)))
    }

    /// The offset from `start` of the first byte `isHit` names (`bytes.count` when none): whole
    /// words are skipped while `wordHasHit` says none of theirs can be one, then byte by byte.
    /// Inlined, so each scan below compiles to its own tight loop.
    @inline(__always)
    private static func firstIndex(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, wordHasHit: (UInt64) -> Bool, isHit: (UInt8) -> Bool
    ) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count, !wordHasHit(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
        }
        while index < bytes.count, !isHit(bytes[index]) { index += 1 }
        return index
    }

    /// The offset from `start` of the first byte a JSON string cannot hold as it is: a control
    /// (below 0x20), a quote or a backslash, and with `slash` a slash; `bytes.count` when none is.
    package static func firstJSONEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, slash: Bool) -> Int {
        firstIndex(in: bytes, from: start) { word in
            let hits = below(0x20, word) | equal(UInt8(ascii: "\""), word) | equal(UInt8(ascii: "\\"), word)
            return (slash ? hits | equal(UInt8(ascii: "/"), word) : hits) != 0
        } isHit: { byte in
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (slash && byte == UInt8(ascii: "/"))
        }
    }

    /// The offset from `start` of the first byte outside printable ASCII (0x20–0x7E);
    /// `bytes.count` when every one is printable.
    package static func firstNonPrintableASCII(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        // Below 0x20, or 0x7F and above (the high bit, or 0x7F + 1 carrying into it).
        firstIndex(in: bytes, from: start) { word in (below(0x20, word) | ((word | (word &+ ones)) & highs)) != 0 } isHit: { byte in
            byte < 0x20 || byte > 0x7E
        }
    }

    /// Whether every byte is ASCII (below 0x80).
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstIndex(in: bytes, from: 0) { $0 & highs != 0 } isHit: { $0 >= 0x80 } == bytes.count
    }

    /// Whether every byte of `text`'s UTF-8 is ASCII.
    package static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isASCII($0) }
    }

    /// Whether one string's UTF-8 holds another's, byte for byte, by the C library's memchr and
    /// memcmp: the standard library's generic `firstRange(of:)` cost more than the rest of a redaction.
    package static func contains(_ text: String, _ needle: String) -> Bool {
        if needle.isEmpty { return true }
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { wanted in
                guard wanted.count <= haystack.count, let base = haystack.baseAddress, let sought = wanted.baseAddress else { return false }
                // Each place the first byte occurs (memchr), compared whole (memcmp).
                let lastStart = haystack.count - wanted.count
                var start = 0
                while start <= lastStart {
                    guard let found = memchr(base + start, Int32(sought.pointee), lastStart - start + 1) else { return false }
                    if memcmp(found, sought, wanted.count) == 0 { return true }
                    start = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
                }
                return false
            }
        }
    }

    /// The offset of the first `byte` in `text`'s UTF-8, if any.
    package static func firstOffset(of byte: UInt8, in text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes in
            let index = firstIndex(in: bytes, from: 0) { equal(byte, $0) != 0 } isHit: { $0 == byte }
            return index < bytes.count ? index : nil
        }
    }
}
