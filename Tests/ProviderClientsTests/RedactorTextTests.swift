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
}
