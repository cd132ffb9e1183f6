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

    /// Invisible bidirectional controls would make a line read other than it is (a reversed
    /// amount or reference): they are escaped too; right-to-left letters themselves stay.
    @Test func bidirectionalFormattingCharactersAreWrittenAsEscapes() {
        #expect(TerminalText.escapingControls("ref \u{202E}50.54$\u{202C} ok") == #"ref \u{202E}50.54$\u{202C} ok"#)
        #expect(TerminalText.escapingControls("\u{2066}a\u{2069}\u{200F}\u{61C}") == #"\u{2066}a\u{2069}\u{200F}\u{61C}"#)
        #expect(TerminalText.escapingControls("שלום مرحبا") == "שלום مرحبا")
    }
}
