import Testing

@testable import Sandbox

/// The quick check of a create's `redirect_url` only ever accepts what the full parse accepts.
@Suite struct RedirectURLCheckTests {
    @Test(arguments: [
        "terminalcheckout://checkout/return", "https://example.com", "https://example.com/a/b_c.d~e-f",
        "http://127.0.0.1/x/Y", "my+app.v2-x://h", "a://b/",
    ])
    func plainAbsoluteURLsPassBothChecks(_ url: String) {
        #expect(CustomerRequestValidation.isPlainAbsoluteURL(url))
        #expect(CustomerRequestValidation.isAbsoluteURL(url))
    }

    @Test(arguments: [
        "", "https://", "https:///path", "Https://example.com", "https://exa mple.com", "https://example.com?x=1",
        "https://user@example.com", "https://example.com:8080/", "1https://example.com", "https:example.com",
        "terminalcheckout:/return", "https://example.com/%20", "https://example.com#top", "://example.com",
        "https://ex\u{e9}mple.com", "https://example.com/a b",
    ])
    func anythingElseIsLeftToTheFullParse(_ url: String) {
        #expect(!CustomerRequestValidation.isPlainAbsoluteURL(url))
    }

    @Test func theFullParseStillDecidesTheRest() {
        #expect(CustomerRequestValidation.isAbsoluteURL("Https://example.com:8080/?x=1#top"))
        #expect(CustomerRequestValidation.isAbsoluteURL("terminalcheckout:/return"))
        #expect(!CustomerRequestValidation.isAbsoluteURL("https:///path"))
        #expect(!CustomerRequestValidation.isAbsoluteURL("not a url"))
        #expect(!CustomerRequestValidation.isAbsoluteURL("/relative/path"))
    }

    /// Every short string over the quick check's alphabet that it accepts, the full parse accepts.
    @Test func theQuickCheckNeverAcceptsWhatTheFullParseRefuses() {
        let pieces = ["a", "1", "+", ".", "-", ":", "/", "//", "://", "A", "~", "_"]
        var checked = 0
        func walk(_ text: String, _ depth: Int) {
            if CustomerRequestValidation.isPlainAbsoluteURL(text) {
                checked += 1
                #expect(CustomerRequestValidation.isAbsoluteURL(text), "\(text)")
            }
            guard depth > 0 else { return }
            for piece in pieces { walk(text + piece, depth - 1) }
        }
        walk("", 5)
        #expect(checked > 100)
    }
}
