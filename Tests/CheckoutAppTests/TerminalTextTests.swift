import Testing
import TerminalUI

/// Text from files, providers and the network never reaches the terminal as control sequences.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreWrittenAsEscapes() {
        let hostile = "state: approved\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[?1049h\u{9B}31m"
        let safe = TerminalText.escapingControls(hostile)
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(safe == #"state: approved\u{1B}]0;pwned\u{7}\u{1B}[2J\u{1B}[?1049h\u{9B}31m"#)
    }

    @Test func ordinaryTextTabsAndLineBreaksStay() {
        #expect(TerminalText.escapingControls("café ✓\tGRR_1 $45.05") == "café ✓\tGRR_1 $45.05")
        #expect(TerminalText.escapingControls(lines: "one\ntwo\u{1B}") == "one\ntwo\\u{1B}")
    }
}
