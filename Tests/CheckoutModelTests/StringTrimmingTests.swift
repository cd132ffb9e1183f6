@testable import CheckoutModel
import Foundation
import Testing

/// The trims drop exactly what Foundation's character sets would, for every Unicode scalar.
@Suite struct StringTrimmingTests {
    private static let everyScalar: [Unicode.Scalar] = (0...0x10FFFF).compactMap { Unicode.Scalar(UInt32($0)) }

    @Test func whitespaceIsFoundationsSetForEveryScalar() {
        let differing = Self.everyScalar.filter { isWhitespace($0) != CharacterSet.whitespaces.contains($0) }
        #expect(differing.isEmpty, "differ: \(differing.prefix(10).map { String($0.value, radix: 16) })")
    }

    @Test func whitespaceOrNewlineIsFoundationsSetForEveryScalar() {
        let differing = Self.everyScalar.filter { isWhitespaceOrNewline($0) != CharacterSet.whitespacesAndNewlines.contains($0) }
        #expect(differing.isEmpty, "differ: \(differing.prefix(10).map { String($0.value, radix: 16) })")
    }

    @Test(arguments: [
        "", " ", "\t\n", "key", "  key  ", "\u{3000}k e y\u{A0}\n", "\r\n-----BEGIN KEY-----\nAB\n-----END KEY-----\n",
        " \u{301}x", "x\u{2028}", "\u{85}y\u{85}", "é ", "\u{1F600}\t",
    ])
    func trimsAsFoundationDoes(text: String) {
        #expect(text.trimmedOfWhitespace == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmedOfWhitespaceAndNewlines == text.trimmingCharacters(in: .whitespacesAndNewlines))
        let inner = Substring(" " + text + "\n")
        #expect(inner.trimmedOfWhitespaceAndNewlines == inner.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
