/// The order `JSONSerialization` writes an object's keys in with `.sortedKeys` (a localized,
/// case-insensitive, numeric comparison), for keys of ASCII letters, digits and underscores: the
/// bytes of their lower case. Where that could differ from its order it is left to
/// JSONSerialization (nil): two keys alike but for case (its tie-break), and two keys whose first
/// difference is a digit (`a9` and `a10` it orders by number). The callers check their keys'
/// characters: Adyen's fingerprint and the run lines.
package enum SerializedKeyOrder {
    package static func sorted<Member>(_ members: [Member], key: (Member) -> String) -> [Member]? {
        let folded = members.map { (member: $0, folded: Array(key($0).lowercased().utf8)) }
            .sorted { $0.folded.lexicographicallyPrecedes($1.folded) }
        for (earlier, later) in zip(folded, folded.dropFirst()) {
            guard let difference = zip(earlier.folded, later.folded).first(where: { $0 != $1 }) else {
                if earlier.folded.count == later.folded.count { return nil }
                continue  // a key before the longer keys it starts
            }
            if isDigit(difference.0) || isDigit(difference.1) { return nil }
        }
        return folded.map(\.member)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
