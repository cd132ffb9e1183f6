import Foundation  // the C library's memchr and memcmp, on every platform

/// Whether one string's UTF-8 holds another's, byte for byte, with the C library's memchr and
/// memcmp: the standard library's generic `firstRange(of:)` cost more than the rest of a redaction.
enum ByteSearch {
    static func contains(_ text: String, _ needle: String) -> Bool {
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
}
