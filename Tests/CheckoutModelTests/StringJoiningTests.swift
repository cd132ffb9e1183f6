import CheckoutModel
import Testing

/// The arrays' own `joined(separator:)` (StringJoining.swift) against the standard library's,
/// which a generic context still reaches.
@Suite struct StringJoiningTests {
    static let cases: [([String], String)] = [
        ([], ", "), ([""], "|"), (["one"], " or "), (["a", "b", "c"], "|"), (["a", "", "c"], ""),
        (["", ""], "-"), (["Café", "日本", "🙂"], " · "), (["line one", "line two"], "\n"),
    ]

    static func standardJoined<Strings: Sequence>(_ strings: Strings, separator: String) -> String
    where Strings.Element: StringProtocol {
        strings.joined(separator: separator)
    }

    @Test(arguments: cases)
    func stringsJoinAsTheStandardLibraryJoinsThem(strings: [String], separator: String) {
        #expect(strings.joined(separator: separator) == Self.standardJoined(strings, separator: separator))
    }

    @Test(arguments: cases)
    func substringsJoinAsTheStandardLibraryJoinsThem(strings: [String], separator: String) {
        let substrings = strings.map { Substring($0) }
        #expect(substrings.joined(separator: separator) == Self.standardJoined(substrings, separator: separator))
    }

    @Test func theSeparatorDefaultsToNothing() {
        #expect(["a", "b"].joined() == "ab")
        #expect([Substring("a"), Substring("b")].joined() == "ab")
    }
}
