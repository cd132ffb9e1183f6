// The standard library's `joined(separator:)`, for arrays of strings and of substrings in
// particular. Its own is generic over the collection: the first call in a process looks up the
// collection's associated types by name at run time, each lookup a scan of every protocol
// conformance in the binary (14,000): half a millisecond of a launch's first frame. These are
// compiled for the two element types, and are chosen over it wherever this module is imported.

extension Array where Element == String {
    public func joined(separator: String = "") -> String {
        guard let first else { return "" }
        var joined = String(first)
        for element in self[1...] {
            joined += separator
            joined += element
        }
        return joined
    }
}

extension Array where Element == Substring {
    public func joined(separator: String = "") -> String {
        guard let first else { return "" }
        var joined = String(first)
        for element in self[1...] {
            joined += separator
            joined += element
        }
        return joined
    }
}
