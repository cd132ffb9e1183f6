/// Every cut, removal and one-byte replacement (by each of `replacements`) of `plain`: what a
/// fast reader is held to JSONDecoder on.
public func oneByteChanges(of plain: [UInt8], replacements: [UInt8]) -> [[UInt8]] {
    var variants: [[UInt8]] = []
    for index in plain.indices {
        variants.append(Array(plain[..<index]))
        var removed = plain
        removed.remove(at: index)
        variants.append(removed)
        for byte in replacements where byte != plain[index] {
            var changed = plain
            changed[index] = byte
            variants.append(changed)
        }
    }
    return variants
}
