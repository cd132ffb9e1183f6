/// The order `JSONSerialization` writes an object's keys in with `.sortedKeys` (a localized,
/// case-insensitive, numeric comparison), for keys of ASCII letters and underscores: the bytes
/// of their lower case. Two keys alike but for case are left to JSONSerialization's tie-break
/// (nil). The callers check their keys' characters: Adyen's fingerprint and the run lines.
package enum SerializedKeyOrder {
    package static func sorted<Member>(_ members: [Member], key: (Member) -> String) -> [Member]? {
        let folded = members.map { (member: $0, folded: Array(key($0).lowercased().utf8)) }
            .sorted { $0.folded.lexicographicallyPrecedes($1.folded) }
        for (earlier, later) in zip(folded, folded.dropFirst()) where earlier.folded == later.folded { return nil }
        return folded.map(\.member)
    }
}
