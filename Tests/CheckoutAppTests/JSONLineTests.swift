import Foundation
import Testing
import TerminalUI

@testable import CheckoutApp

/// `--json` lines stay JSON however a provider's text reads (Schemas/README.md).
@Suite struct JSONLineTests {
    @Test func delAndC1ControlsAreJSONEscapesThatReadBack() throws {
        let reason = "refused\u{85}by\u{7F}bank\u{9F}"
        let line = JSONLine.encode(["reason": reason])
        #expect(line == #"{"reason":"refused\u0085by\u007Fbank\u009F"}"#)
        // Console escapes controls on every path; a JSON line has none left to escape.
        #expect(TerminalText.escapingControls(lines: line) == line)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(decoded["reason"] == reason)
    }

    /// A right-to-left override in a provider's text is a JSON escape too: the line reads on a
    /// terminal as it is, and decodes to the same text.
    @Test func bidirectionalControlsAreJSONEscapesThatReadBack() throws {
        let reference = "ref-\u{202E}50.54\u{2066}x\u{2069}"
        let line = JSONLine.encode(["reference": reference])
        #expect(line == #"{"reference":"ref-\u202E50.54\u2066x\u2069"}"#)
        #expect(TerminalText.escapingControls(lines: line) == line)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(decoded["reference"] == reference)
    }
}
