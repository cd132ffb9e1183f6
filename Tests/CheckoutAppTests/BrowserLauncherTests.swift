@testable import CheckoutApp
import Foundation
import Testing

/// The command `o` runs, and the real launcher on stand-in browsers (scripts): never a shell,
/// its answer said, a missing or failing opener explained.
@Suite struct BrowserLauncherTests {
    static let url = "http://127.0.0.1:8080/sandbox/customer-requests/GRR_1/authorize?t=0-a&b=$(touch x)"

    @Test func withoutBrowserTheDesktopsOpenerGetsTheLinkAsOneArgument() {
        let commands = BrowserCommand.candidates(for: Self.url, browserVariable: nil)
        #expect(commands == [BrowserCommand(arguments: [BrowserCommand.platformOpener, Self.url], name: BrowserCommand.platformOpener)])
        #expect(BrowserCommand.candidates(for: Self.url, browserVariable: "  ") == commands)
    }

    @Test func browserIsAListOfCommandsEachMaybeWithAPlaceholder() {
        let commands = BrowserCommand.candidates(for: Self.url, browserVariable: "chromium --new-window %s:firefox")
        #expect(commands.map(\.arguments) == [["chromium", "--new-window", Self.url], ["firefox", Self.url]])
        #expect(commands.map(\.name) == ["$BROWSER (chromium)", "$BROWSER (firefox)"])
    }

    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private func script(_ body: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("browser.sh").path
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test func aBrowserThatStartsGetsTheLinkUntouchedAndNothingIsSaidAgainstIt() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = directory.appendingPathComponent("received").path
        let browser = try script("printf '%s' \"$1\" > '\(received)'; [ -t 0 ] && echo tty >> '\(received)'; exit 0", in: directory)
        let problem = await BrowserLauncher(environment: ["BROWSER": browser, "PATH": "/usr/bin:/bin"]).open(Self.url)
        #expect(problem == nil)
        // The launcher may answer before the script has written (a slow start counts as opened).
        let deadline = ContinuousClock.now + .seconds(20)
        var contents: String?
        while ContinuousClock.now < deadline {
            contents = try? String(contentsOfFile: received, encoding: .utf8)
            if contents?.isEmpty == false { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(contents == Self.url)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x").path))
    }

    @Test func aMissingOrFailingBrowserIsExplained() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = await BrowserLauncher(environment: ["BROWSER": "/nonexistent/browser", "PATH": "/usr/bin:/bin"]).open(Self.url)
        #expect(missing == "$BROWSER (/nonexistent/browser) is not installed")
        let failing = try script("exit 3", in: directory)
        let failed = await BrowserLauncher(environment: ["BROWSER": failing, "PATH": "/usr/bin:/bin"]).open(Self.url)
        #expect(failed == "$BROWSER (\(failing)) failed (exit status 3)")
        // The next command in the list is tried when the first cannot start.
        let fallback = try script("exit 0", in: directory)
        #expect(await BrowserLauncher(environment: ["BROWSER": "/nonexistent/browser:\(fallback)"]).open(Self.url) == nil)
    }
}
