import CheckoutModel

/// Text from a file, a provider or the network made safe to print: control characters
/// (C0 but tab, DEL and C1) and bidirectional formatting characters are written as
/// `\u{1B}`-style escapes, so a transcript or an error body cannot move the cursor, retitle,
/// clear or switch the terminal, or make a line read other than it is.
public enum TerminalText {
    public static func escapingControls(_ text: String) -> String {
        DisplaySafety.escaping(text)
    }

    /// Each line escaped, the line breaks kept.
    public static func escapingControls(lines text: String) -> String {
        if DisplaySafety.isPrintableASCII(text, lineFeeds: true) { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escapingControls(String($0)) }.joined(separator: "\n")
    }
}
