import Foundation
import Testing
import TestSupport

/// Every command's `--help` documents its exit codes: the root's subcommand list is walked, so
/// a command added later is checked too.
@Suite struct ExitCodesHelpTests {
    /// The subcommands a help text lists under SUBCOMMANDS (`  run   Run one checkout …`).
    static func subcommands(inHelp help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            // Entries are indented two spaces; their wrapped abstracts further.
            guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first.isLetter, first.isLowercase else { return nil }
            return String(line.dropFirst(2).prefix { $0 != " " })
        }
    }

    @Test func everyCommandsHelpListsItsExitCodes() async throws {
        var pending: [[String]] = [[]]
        var checked: [String] = []
        while let command = pending.popLast() {
            let outcome = try await CheckoutBinary.run(command + ["--help"])
            let name = (["checkout"] + command).joined(separator: " ")
            #expect(outcome.status == 0, "\(name) --help: \(outcome.stderr)")
            #expect(outcome.stdout.contains("EXIT CODES:"), "\(name) --help has no EXIT CODES section")
            // ArgumentParser's own status for a bad command line applies to every command.
            #expect(outcome.stdout.contains("\n  64 "), "\(name) --help does not document 64")
            checked.append(name)
            pending += Self.subcommands(inHelp: outcome.stdout).map { command + [$0] }
        }
        #expect(checked.count >= 9, "\(checked)")
    }
}
