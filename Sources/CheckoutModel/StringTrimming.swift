// Foundation's `trimmingCharacters(in: .whitespaces)` and `(in: .whitespacesAndNewlines)`, by
// the standard library's Unicode properties. Foundation builds each character set from ICU's
// tables on its first use: 200,000 to 400,000 instructions of every headless run that trimmed
// a key or a rate once. The same characters, checked against Foundation's sets for every
// Unicode scalar in `StringTrimmingTests`.

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (`CharacterSet.whitespaces`: Unicode's
    /// space separators, U+0009 and U+200B).
    public var trimmedOfWhitespace: String { trimmed(where: isWhitespace) }

    /// Without leading and trailing whitespace and line breaks (`CharacterSet.whitespacesAndNewlines`:
    /// Unicode's White_Space property and U+200B).
    public var trimmedOfWhitespaceAndNewlines: String { trimmed(where: isWhitespaceOrNewline) }

    private func trimmed(where trims: (Unicode.Scalar) -> Bool) -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !trims($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !trims($0) }) ?? first
        return String(scalars[first...last])
    }
}

/// `CharacterSet.whitespaces`. Foundation's sets keep U+200B ZERO WIDTH SPACE, a space
/// separator in Unicode's earlier versions.
func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar == " " || scalar == "\t" }
    return scalar.properties.generalCategory == .spaceSeparator || scalar == "\u{200B}"
}

/// `CharacterSet.whitespacesAndNewlines`.
func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar == " " || ("\t"..."\r").contains(scalar) }
    return scalar.properties.isWhitespace || scalar == "\u{200B}"
}
