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
}
