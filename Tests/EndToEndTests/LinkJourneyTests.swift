import Foundation
import Testing
import TestSupport

/// `y` and `o` in the real binary on a real pseudo-terminal: the bytes that reach the terminal
/// (OSC 52 for the clipboard) and the browser `$BROWSER` names (a script recording its argument).
@Suite(.serialized) struct LinkJourneyTests {
    private static let osc52 = Array("\u{1B}]52;c;".utf8)

    private func environment(browser: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["CASHAPP_CLIENT_ID", "CASHAPP_BRAND_ID", "NO_COLOR"] { environment.removeValue(forKey: key) }
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = UTF8Locale.name
        environment["LC_ALL"] = UTF8Locale.name
        environment["BROWSER"] = browser
        return environment
    }

    /// The text of the first OSC 52 in `output`, base64-decoded, with the exact bytes it came in.
    private func copied(in output: [UInt8]) -> (text: String, sequence: [UInt8])? {
        guard let start = output.firstRange(of: Self.osc52), let bell = output[start.upperBound...].firstIndex(of: 0x07),
            let data = Data(base64Encoded: Data(output[start.upperBound..<bell]))
        else { return nil }
        return (String(decoding: data, as: UTF8.self), Array(output[start.lowerBound...bell]))
    }

    /// A link without its renewal token: `…/customer-requests/GRR_…/authorize`.
    private static func request(of link: String) -> String {
        String(link.prefix { $0 != "?" })
    }

    @Test func yCopiesTheLinkThroughTheTerminalAndOOpensItInTheBrowser() async throws {
        let folder = try ScratchFolder("links")
        defer { folder.remove() }
        let opened = folder.path("opened")
        let browser = folder.path("browser.sh")
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened)'\n".write(toFile: browser, atomically: true, encoding: .utf8)

        // Run by /bin/sh rather than executed: a script just written cannot be executed while a
        // child another test forked meanwhile still holds it open for writing (ETXTBSY), and on a
        // starved machine that child may take longer to exec than the opener waits.
        let pty = try PtySession([CheckoutBinary.url.path], environment: environment(browser: "/bin/sh \(browser)"))
        defer { if pty.status == nil { kill(pty.pid, SIGKILL) } }
        try await pty.waitFor("House Blend Beans")
        // The mouse is on by default: ncurses asked the terminal for reports.
        #expect(pty.output.firstRange(of: Array("1000h".utf8)) != nil)

        // p creates the request; its link exists once the sandbox answers, so y is pressed until
        // the clipboard sequence comes (a y before then only says there is no link yet).
        pty.type("p")
        let deadline = ContinuousClock.now + .seconds(45)
        while copied(in: pty.output) == nil, ContinuousClock.now < deadline {
            pty.type("y")
            _ = try? await pty.waitFor("OSC 52", timeout: 0.5) { $0.firstRange(of: Self.osc52) != nil }
        }
        let (link, sequence) = try #require(copied(in: pty.output), "no OSC 52 in the output")
        #expect(link.hasPrefix("http://127.0.0.1:"))
        #expect(link.contains("/sandbox/customer-requests/GRR_") && link.contains("/authorize"))
        #expect(sequence == Self.osc52 + Array(Data(link.utf8).base64EncodedString().utf8) + [0x07])

        // The link is renewed every 30 s (its `t=`): o opens the same request's link, as it is now.
        pty.type("o")
        try await pty.waitFor("the browser's argument") { _ in
            (try? String(contentsOfFile: opened, encoding: .utf8)).map { Self.request(of: $0) == Self.request(of: link) } ?? false
        }

        // A request is in flight: q asks first, y (read after it) quits.
        pty.type("qy")
        try await pty.waitFor("the screen to end") { _ in pty.status != nil }
        #expect(pty.status == 0)
    }

    @Test func noMouseAsksTheTerminalForNoReports() async throws {
        let pty = try PtySession([CheckoutBinary.url.path, "--no-mouse"], environment: environment(browser: "true"))
        defer { if pty.status == nil { kill(pty.pid, SIGKILL) } }
        try await pty.waitFor("House Blend Beans")
        pty.type("q")
        try await pty.waitFor("the screen to end") { _ in pty.status != nil }
        #expect(pty.status == 0)
        #expect(pty.output.firstRange(of: Array("1000h".utf8)) == nil)
    }
}
