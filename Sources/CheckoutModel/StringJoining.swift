// The standard library's `joined(separator:)`, for arrays of strings and of substrings in
// particular. Its own is generic over the collection: the first call in a process looks up the
// collection's associated types by name at run time, each lookup a scan of every protocol
// conformance in the binary (14,000): half a millisecond of a launch's first frame. These are
// chosen over it wherever this module is imported.

extension Array where Element == String {
    public func joined(separator: String = "") -> String { joinedText(self, separator: separator) }
}

extension Array where Element == Substring {
    public func joined(separator: String = "") -> String { joinedText(self, separator: separator) }
}

/// Private, so a release build compiles it for each of the two callers' element types.
private func joinedText<Part: StringProtocol>(_ parts: [Part], separator: String) -> String {
    guard let first = parts.first else { return "" }
    var joined = String(first)
    for part in parts[1...] {
        joined += separator
        joined += String(part)
    }
    return joined
}
