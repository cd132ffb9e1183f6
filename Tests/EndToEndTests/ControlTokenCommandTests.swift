import Foundation
import Testing
import TestSupport

/// `checkout sandbox --control-token-file` and the clients that send its token (`checkout run
/// --sandbox-url … --sandbox-token-file`, CHECKOUT_SANDBOX_CONTROL_TOKEN), through the real
/// binary: the checkout completes with it, fails at once and clearly without it, and the token
/// shows nowhere (stdout, stderr, the HAR transcript, the sandbox's own output).
@Suite struct ControlTokenCommandTests {
    static let token = "e2e-control-token-7f3a9c1b5d2e8f40"

    /// A folder for token files and transcripts, removed after `body`.
    static func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("control-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    static func write(_ text: String, to folder: URL, name: String = "token") throws -> String {
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Waits for the sandbox's banner (it follows the base URL on stderr).
    static func waitForBanner(_ server: ChildProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !server.stderr.contains("Ctrl-C"), server.status == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aCheckoutSendsTheTokenAndItShowsNowhere() async throws {
        try await Self.withFolder { folder in
            // The first line of the file, trimmed: a trailing newline and spaces are no part of it.
            let file = try Self.write("  \(Self.token)  \nnot the token\n", to: folder)
            let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0", "--control-token-file", file])
            defer { server.signal(SIGTERM) }
            try await Self.waitForBanner(server)
            #expect(server.stderr.contains("control routes need the control token"), "\(server.stderr)")
            #expect(try await CheckoutBinary.send("GET", baseURL + "/sandbox/ledger").status == 401)

            let har = folder.appendingPathComponent("run.har").path
            let run = try await CheckoutBinary.run([
                "run", "--sandbox-url", baseURL, "--sandbox-token-file", file, "--fault", "GET /nowhere 503", "--record", har, "--timeout", "60",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.states.last == "approved")
            let transcript = try String(contentsOfFile: har, encoding: .utf8)
            // The simulated customer's approve and the fault went with the token, shown redacted.
            #expect(transcript.contains("/sandbox/customer-requests/"))
            #expect(transcript.contains("Bearer [REDACTED]"))
            for (name, text) in [("stdout", run.stdout), ("stderr", run.stderr), ("the transcript", transcript), ("the sandbox's stdout", server.stdout),
                ("the sandbox's stderr", server.stderr)] {
                #expect(!text.contains(Self.token), "the token shows in \(name)")
            }
            // The run's faults were removed with the token too.
            let faults = try await CheckoutBinary.send(
                "GET", baseURL + "/sandbox/faults", headers: [(name: "Authorization", value: "Bearer \(Self.token)")])
            #expect(String(decoding: faults.body, as: UTF8.self).contains(#""faults":[]"#), "\(String(decoding: faults.body, as: UTF8.self))")

            // The environment variable does as well as the file.
            let fromEnvironment = try await CheckoutBinary.run(
                ["run", "--sandbox-url", baseURL, "--timeout", "60"], environment: ["CHECKOUT_SANDBOX_CONTROL_TOKEN": Self.token])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
            #expect(!fromEnvironment.stderr.contains(Self.token))
        }
    }

    @Test func withoutTheTokenTheRunEndsAtOnceSayingWhatToPass() async throws {
        try await Self.withFolder { folder in
            let file = try Self.write(Self.token + "\n", to: folder)
            let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0", "--control-token-file", file])
            defer { server.signal(SIGTERM) }
            let none = try await CheckoutBinary.run(["run", "--sandbox-url", baseURL, "--timeout", "120"], environment: ["CHECKOUT_SANDBOX_CONTROL_TOKEN": ""])
            #expect(none.status == 2)
            #expect(
                none.stderr.contains("the sandbox at \(baseURL) needs a control token: pass --sandbox-token-file or set CHECKOUT_SANDBOX_CONTROL_TOKEN"),
                "\(none.stderr)")
            #expect(!none.stderr.contains("timeout:"), "\(none.stderr)")

            let wrong = try Self.write("not-the-sandbox-token-00000000", to: folder, name: "wrong")
            let refused = try await CheckoutBinary.run(["run", "--sandbox-url", baseURL, "--sandbox-token-file", wrong, "--fault", "GET /x 503"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("did not accept the control token given"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("not-the-sandbox-token"))
        }
    }

    @Test func listingBeyondLoopbackWithoutATokenWarns() async throws {
        let (open, _) = try await CheckoutBinary.start(["sandbox", "--host", "0.0.0.0", "--port", "0"])
        defer { open.signal(SIGTERM) }
        try await Self.waitForBanner(open)
        #expect(open.stderr.contains("warning: listening on 0.0.0.0 without a control token"), "\(open.stderr)")
        for risk in ["approve", "inject faults", "register webhook receivers", "read the ledger", "reset"] {
            #expect(open.stderr.contains(risk), "the warning does not name \(risk)")
        }
        let (loopback, _) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { loopback.signal(SIGTERM) }
        try await Self.waitForBanner(loopback)
        #expect(!loopback.stderr.contains("warning"), "\(loopback.stderr)")
        try await Self.withFolder { folder in
            let (guarded, _) = try await CheckoutBinary.start(
                ["sandbox", "--host", "0.0.0.0", "--port", "0", "--control-token-file", try Self.write(Self.token, to: folder)])
            defer { guarded.signal(SIGTERM) }
            try await Self.waitForBanner(guarded)
            #expect(!guarded.stderr.contains("warning"), "\(guarded.stderr)")
        }
    }

    @Test func aTokenThatCannotBeUsedIsAUsageErrorNamingWhereItCameFrom() async throws {
        try await Self.withFolder { folder in
            let empty = try Self.write("\n\n", to: folder, name: "empty")
            let short = try Self.write("tooShort1\n", to: folder, name: "short")
            let missing = folder.appendingPathComponent("missing").path
            let cases: [([String], [String: String], String)] = [
                (["sandbox", "--port", "0", "--control-token-file", missing], [:], "--control-token-file \(missing) no such file"),
                (["sandbox", "--port", "0", "--control-token-file", empty], [:], "--control-token-file \(empty) has no token on its first line"),
                (["sandbox", "--port", "0", "--control-token-file", short], [:], "must be at least 16 characters (it has 9)"),
                (["sandbox", "--port", "0", "--control-token", "has spaces in it, see"], [:], "printable ASCII without spaces"),
                (["sandbox", "--port", "0", "--control-token", Self.token, "--control-token-file", short], [:], "not both"),
                (["sandbox", "--port", "0"], ["CHECKOUT_SANDBOX_CONTROL_TOKEN": "tooShort1"], "CHECKOUT_SANDBOX_CONTROL_TOKEN must be at least 16"),
                (["run", "--sandbox-url", "http://127.0.0.1:9", "--sandbox-token-file", missing], [:], "--sandbox-token-file \(missing) no such file"),
                (["run", "--sandbox-url", "http://127.0.0.1:9", "--sandbox-token-file", short], [:], "must be at least 16 characters"),
                (["run", "--sandbox-token-file", short], [:], "--sandbox-token-file is for a shared sandbox: give --sandbox-url too"),
                (["run", "--sandbox-url", "http://127.0.0.1:9"], ["CHECKOUT_SANDBOX_CONTROL_TOKEN": "tooShort1"], "CHECKOUT_SANDBOX_CONTROL_TOKEN must be at least 16"),
            ]
            for (arguments, environment, message) in cases {
                let outcome = try await CheckoutBinary.run(arguments, environment: environment, timeout: 30)
                let command = arguments.joined(separator: " ")
                #expect(outcome.status == 64, "\(command): \(outcome.status) \(outcome.stderr)")
                #expect(outcome.stderr.contains(message), "\(command): \(outcome.stderr)")
                #expect(!outcome.stderr.contains("tooShort1"), "\(command) printed the token")
            }
        }
    }

    @Test func theHelpRecommendsAFileOverTheCommandLine() async throws {
        let sandbox = try await CheckoutBinary.run(["sandbox", "--help"])
        #expect(sandbox.stdout.contains("--control-token-file"))
        #expect(sandbox.stdout.contains("`ps`"))
        #expect(sandbox.stdout.contains("CHECKOUT_SANDBOX_CONTROL_TOKEN"))
        let run = try await CheckoutBinary.run(["run", "--help"])
        #expect(run.stdout.contains("--sandbox-token-file"))
    }
}
