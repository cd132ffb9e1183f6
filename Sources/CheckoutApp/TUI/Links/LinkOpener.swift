import CheckoutModel
import Foundation

/// Opens a link in the user's browser. Injected into the UI loop, so tests never start one.
protocol LinkOpener: Sendable {
    /// Starts the browser on `url` (an http(s) URL `ScreenLink` accepted); nil once it started,
    /// else why it could not. Called off the UI thread: it may wait for the opener to answer.
    func open(_ url: String) async -> String?
}

/// The command that opens a link: `$BROWSER` (a colon-separated list of commands, each maybe
/// with `%s` for the link) if set, else the desktop's opener. Never a shell: each command is
/// split on spaces into the program and its arguments.
struct BrowserCommand: Hashable, Sendable {
    let arguments: [String]
    /// How the notice line names it: `$BROWSER (firefox)` or `xdg-open`.
    let name: String

    static var platformOpener: String { DesktopPlatform.opener }

    /// The commands to try, in order, for `url`.
    static func candidates(for url: String, browserVariable: String?) -> [BrowserCommand] {
        guard let browserVariable, !browserVariable.trimmedOfWhitespace.isEmpty else {
            return [BrowserCommand(arguments: [platformOpener, url], name: platformOpener)]
        }
        return browserVariable.split(separator: ":").compactMap { entry in
            let words = entry.split(separator: " ").map(String.init)
            guard let program = words.first else { return nil }
            let placeholder = words.contains { $0.contains("%s") }
            let arguments = placeholder ? words.map { $0.replacingOccurrences(of: "%s", with: url) } : words + [url]
            return BrowserCommand(arguments: arguments, name: "$BROWSER (\(program))")
        }
    }
}
