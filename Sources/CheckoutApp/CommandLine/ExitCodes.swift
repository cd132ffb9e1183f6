import ArgumentParser
import Foundation

/// The "EXIT CODES" section each command's `--help` ends its overview with, so scripts can rely
/// on every status a command returns (the README's "Exit codes" lists the same). A command lists
/// its own statuses, then the shared ones below.
public enum ExitCodes {
    /// One or more statuses and what they mean.
    public struct Entry: Sendable {
        public let statuses: [Int32]
        public let meaning: String

        public init(_ statuses: Int32..., meaning: String) {
            self.statuses = statuses
            self.meaning = meaning
        }
    }

    /// ArgumentParser's own status for a command line it cannot take; commands reuse it for the
    /// input files they name (`also`).
    public static func usage(_ also: String = "") -> Entry {
        Entry(ExitStatus.usage.rawValue, meaning: "bad usage: an unknown or out-of-range option or argument" + also + " (the message says which)")
    }

    /// What `SignalCleanup` and the screen return when an ending signal stops them: 128 + the signal.
    public static func signals(_ after: String) -> Entry {
        Entry(129, 130, 131, 143, meaning: "ended by SIGHUP, SIGINT, SIGQUIT or SIGTERM (128 + the signal), " + after)
    }

    /// The section's text: a heading, then one entry per line with a hanging indent.
    public static func section(_ entries: [Entry]) -> String {
        let labels = entries.map { $0.statuses.map(String.init).joined(separator: ", ") }
        let width = (labels.map(\.count).max() ?? 0) + 2
        var lines = ["", "EXIT CODES:"]
        for (label, entry) in zip(labels, entries) {
            let wrapped = HelpText.wrap(entry.meaning, width: 76 - 2 - width)
            for (index, line) in wrapped.enumerated() {
                let lead = index == 0 ? label + String(repeating: " ", count: max(0, width - label.count)) : String(repeating: " ", count: width)
                lines.append("  " + lead + line)
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension ExitCode {
    /// A status as `ExitStatus` names it, so commands say `.usage` rather than 64.
    public init(_ status: ExitStatus) { self.init(status.rawValue) }
}
