import Foundation
import ProviderWire
import Testing

/// A configured secret is replaced wherever it appears, in any spelling Swift's strings hold
/// equal, and text without it comes back unchanged.
@Suite struct RedactorTextTests {
    private let redactor = Redactor(secrets: ["sk_live_Kabc", "clé-secrète"])

    @Test func anASCIISecretIsReplacedAndTextWithoutItIsLeftAsItIs() {
        #expect(redactor.text("Bearer sk_live_Kabc, again sk_live_Kabc") == "Bearer [REDACTED], again [REDACTED]")
        #expect(redactor.text("nothing secret here, not even sk_live_Kab") == "nothing secret here, not even sk_live_Kab")
        #expect(redactor.text("") == "")
    }

    @Test func otherSpellingsOfASecretAreReplacedToo() {
        // U+212A KELVIN SIGN is canonically "K"; "é" may come decomposed.
        #expect(redactor.text("token sk_live_\u{212A}abc.") == "token [REDACTED].")
        #expect(redactor.text("mot: cle\u{301}-secre\u{300}te") == "mot: [REDACTED]")
        #expect(redactor.text("mot: clé-secrète") == "mot: [REDACTED]")
    }

    /// Text outside ASCII (a bank's Thai name beside a secret) is searched by bytes only where no
    /// scalar could spell the secret otherwise; either way the result is Foundation's own.
    @Test func textOutsideASCIIIsRedactedAsFoundationSearchesIt() {
        let secrets = ["sk_live_Kabc", "abab", "=<>;`A", "clé-secrète"]
        let redactor = Redactor(secrets: secrets)
        let pieces = ["ธนาคาร", "a", "b", "ab", "sk_live_", "Kabc", "\u{212A}", "K", "é", "e\u{301}", "=", "<", ">", "≠", "≮", ";", "\u{37E}", "`", "\u{1FEF}", "A", "Å", "Ä", " ", "😀", "คลé", "-secrète", "cle\u{301}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let foundations = secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Redactor.marker) }
            #expect(redactor.text(text) == foundations, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(redactor.text("ธนาคาร sk_live_\u{212A}abc") == "ธนาคาร [REDACTED]")
        #expect(redactor.text("ธนาคาร sk_live_Kabd") == "ธนาคาร sk_live_Kabd")
    }

    @Test func theScalarsThatDecomposeToASCIIAreThoseUnicodeSays() {
        // Every scalar outside the list decomposes (as Foundation says) to no ASCII character.
        for value in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), !Redactor.decomposesToASCII(scalar) else { continue }
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping
            #expect(!decomposed.unicodeScalars.contains { $0.isASCII }, "U+\(String(value, radix: 16))")
        }
        for value: UInt32 in [0xE9, 0x212A, 0x37E, 0x1FEF, 0x2260, 0x1E00] {
            #expect(Redactor.decomposesToASCII(Unicode.Scalar(value)!))
        }
    }

    @Test func aSecretIsFoundWhereverItStartsAndOnlyWhole() {
        let redactor = Redactor(secrets: ["abab"])
        // Near misses sharing its first byte, overlaps, and the very ends of the text.
        #expect(redactor.text("abab") == "[REDACTED]")
        #expect(redactor.text("aababx") == "a[REDACTED]x")
        #expect(redactor.text("xxabab") == "xx[REDACTED]")
        #expect(redactor.text("aba aab abaX ab") == "aba aab abaX ab")
        #expect(redactor.text("aba") == "aba")
        // Every short text over its alphabet agrees with Swift's own search.
        for length in 0...7 {
            for code in 0..<(1 << length) {
                let text = String((0..<length).map { code >> $0 & 1 == 0 ? "a" : "b" })
                #expect((redactor.text(text) != text) == text.contains("abab"), "\(text)")
            }
        }
    }

    @Test func aBodyKeepsItsTextUnlessItNamesASecretField() throws {
        let redactor = Redactor(secrets: ["sk_live_Kabc"])
        let plain = #"{"b":1,  "a":"sk_live_Kabc"}"#
        #expect(redactor.body(Data(plain.utf8)) == #"{"b":1,  "a":"[REDACTED]"}"#)
        let secretField = #"{"b":1,"client_secret":"x","nested":[{"Password":"y"}]}"#
        #expect(redactor.body(Data(secretField.utf8)) == #"{"b":1,"client_secret":"[REDACTED]","nested":[{"Password":"[REDACTED]"}]}"#)
        // Escaped, a field's name is still found.
        let escaped = #"{"pass\u0077ord":"y"}"#
        #expect(redactor.body(Data(escaped.utf8)) == #"{"password":"[REDACTED]"}"#)
    }
}
