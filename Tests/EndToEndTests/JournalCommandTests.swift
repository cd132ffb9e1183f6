import Foundation
import TestSupport
import Testing

/// `checkout sandbox`'s access log on stdout (text, json, none) and `checkout journal` (a list,
/// --json, --follow ended by Ctrl-C, a sandbox that goes away) against a real sandbox process.
@Suite struct JournalCommandTests {
    static let client = [(name: "Authorization", value: "Client CAS-CI_JOURNAL_COMMAND")]

    /// A `checkout sandbox` on port 0 with `arguments`, stopped when `body` ends.
    private func withSandbox(_ arguments: [String] = [], _ body: (_ sandbox: ChildProcess, _ baseURL: String) async throws -> Void) async throws {
        let started = try await CheckoutBinary.start(["sandbox", "--port", "0"] + arguments)
        defer {
            started.process.signal(SIGTERM)
            _ = started.process.waitForExit()
        }
        try await body(started.process, started.firstLine)
    }

    private func create(_ baseURL: String, run: String? = nil) async throws -> String {
        let body =
            #"{"idempotency_key":"\#(UUID().uuidString)","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"BRAND_journal","amount":4505,"currency":"USD"}],"channel":"ONLINE","redirect_url":"terminalcheckout://return"}}"#
        let headers = Self.client + (run.map { [(name: "TerminalCheckout-Run", value: $0)] } ?? [])
        let answer = try await CheckoutBinary.send("POST", baseURL + "/customer-request/v1/requests", json: body, headers: headers)
        #expect(answer.status == 201)
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return (object?["request"] as? [String: Any])?["id"] as? String ?? ""
    }

    /// The lines of `process`'s stdout once `done` holds for them (within 20 s), else the last seen.
    private func lines(of process: ChildProcess, until done: ([String]) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(20)
        var lines: [String] = []
        while ContinuousClock.now < deadline {
            lines = process.stdout.split(separator: "\n").map(String.init)
            if done(lines) { return lines }
            try await Task.sleep(for: .milliseconds(25))
        }
        return lines
    }

    @Test func theAccessLogPrintsOneTextLinePerRequest() async throws {
        try await withSandbox { sandbox, baseURL in
            let id = try await create(baseURL, run: "run-access-log")
            _ = try await CheckoutBinary.send("GET", baseURL + "/customer-request/v1/requests/\(id)", headers: Self.client)
            let lines = try await lines(of: sandbox) { $0.count >= 3 }
            #expect(lines.first == baseURL, "the URL stays the first line")
            let create = try #require(lines.dropFirst().first, "no access-log line: \(lines)")
            #expect(create.contains(" POST /customer-request/v1/requests 201 "), "\(create)")
            #expect(create.hasSuffix(" cashapp run=run-access-log"), "\(create)")
            #expect(create.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "#, options: .regularExpression) != nil, "\(create)")
            #expect(create.range(of: #" \d+\.\dms "#, options: .regularExpression) != nil, "\(create)")
            #expect(lines[2].contains(" GET /customer-request/v1/requests/\(id) 200 "), "\(lines[2])")
            #expect(lines[2].hasSuffix(" cashapp run=-"), "\(lines[2])")
            #expect(!sandbox.stdout.contains("CAS-CI_JOURNAL_COMMAND"))
        }
    }

    @Test func theAccessLogInJSONIsOneObjectPerLine() async throws {
        try await withSandbox(["--log-format", "json"]) { sandbox, baseURL in
            _ = try await create(baseURL)
            _ = try await CheckoutBinary.fetch(baseURL + "/sandbox/journal")
            let lines = try await lines(of: sandbox) { $0.count >= 2 }
            #expect(lines.count == 2, "the journal's own read is not logged: \(lines)")
            let line = try #require(lines.last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["method"] as? String == "POST")
            #expect(object["path"] as? String == "/customer-request/v1/requests")
            #expect(object["status"] as? Int == 201)
            #expect(object["provider"] as? String == "cashapp")
            #expect(object["run"] is NSNull)
            #expect(object["duration_ms"] is Double || object["duration_ms"] is Int)
            #expect(object["time"] is String)
        }
    }

    @Test func logFormatNoneKeepsStdoutToTheURL() async throws {
        try await withSandbox(["--log-format", "none"]) { sandbox, baseURL in
            _ = try await create(baseURL)
            // The journal still keeps it (a read flushes it first).
            let listed = try await CheckoutBinary.fetch(baseURL + "/sandbox/journal")
            #expect(String(decoding: listed, as: UTF8.self).contains("/customer-request/v1/requests"))
            #expect(sandbox.stdout == baseURL + "\n")
        }
        let refused = try await CheckoutBinary.run(["sandbox", "--port", "0", "--log-format", "xml"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--log-format must be one of text, json, none"), "\(refused.stderr)")
    }

    @Test func journalListsAndPrintsJSON() async throws {
        try await withSandbox { _, baseURL in
            let id = try await create(baseURL, run: "run-listed")
            _ = try await CheckoutBinary.fetch(baseURL + "/sandbox/health")
            let listed = try await CheckoutBinary.run(["journal", "--sandbox-url", baseURL])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.lines.count == 2, "\(listed.lines)")
            #expect(listed.lines.first?.contains(" POST /customer-request/v1/requests 201 ") == true, "\(listed.stdout)")
            #expect(listed.lines.first?.hasSuffix(" cashapp run-listed") == true, "\(listed.stdout)")
            #expect(listed.lines.last?.hasSuffix(" GET /sandbox/health 200 " + (listed.lines.last?.split(separator: " ")[4] ?? "") + " - -") == true, "\(listed.stdout)")
            let filtered = try await CheckoutBinary.run(["journal", "--sandbox-url", baseURL, "--reference", id, "--json"])
            #expect(filtered.status == 0, "\(filtered.stderr)")
            #expect(filtered.lines.count == 1, "\(filtered.stdout)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data((filtered.lines.first ?? "").utf8)) as? [String: Any])
            #expect(object["provider"] as? String == "cashapp")
            #expect(object["references"] as? [String] == [id] || (object["references"] as? [String])?.contains(id) == true)
            #expect((object["request"] as? [String: Any])?["headers"] != nil)
            #expect(!filtered.stdout.contains("CAS-CI_JOURNAL_COMMAND"), "the client id is redacted")
            let refused = try await CheckoutBinary.run(["journal", "--sandbox-url", baseURL, "--status", "9xx"])
            #expect(refused.status == 64)
        }
    }

    /// A sandbox with a control token lists its journal only to who holds it: the token from a file
    /// or the environment is sent (and shows nowhere); without it, a clear message and exit 2.
    @Test func aSandboxWithAControlTokenListsItsJournalToWhoHoldsIt() async throws {
        let token = "journal-control-token-5c1e9a7b3d"
        try await ControlTokenCommandTests.withFolder { folder in
            let file = try ControlTokenCommandTests.write(token, to: folder)
            try await withSandbox(["--control-token-file", file]) { sandbox, baseURL in
                _ = try await create(baseURL, run: "run-token")
                let refused = try await CheckoutBinary.run(["journal", "--sandbox-url", baseURL])
                #expect(refused.status == 2, "\(refused.stderr)")
                #expect(refused.stderr.contains("needs a control token: pass --sandbox-token-file"), "\(refused.stderr)")
                let wrong = try await CheckoutBinary.run(
                    ["journal", "--sandbox-url", baseURL], environment: ["CHECKOUT_SANDBOX_CONTROL_TOKEN": "another-token-of-some-length"])
                #expect(wrong.status == 2 && wrong.stderr.contains("did not accept the control token"), "\(wrong.stderr)")
                let listed = try await CheckoutBinary.run(["journal", "--sandbox-url", baseURL, "--sandbox-token-file", file, "--json"])
                #expect(listed.status == 0, "\(listed.stderr)")
                #expect(listed.lines.contains { $0.contains("run-token") }, "\(listed.stdout)")
                let fromEnvironment = try await CheckoutBinary.run(
                    ["journal", "--sandbox-url", baseURL], environment: ["CHECKOUT_SANDBOX_CONTROL_TOKEN": token])
                #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
                for output in [refused.stdout, refused.stderr, listed.stdout, listed.stderr, fromEnvironment.stdout, sandbox.stdout, sandbox.stderr] {
                    #expect(!output.contains(token), "the token shows: \(output)")
                }
            }
        }
    }

    @Test func followPrintsNewRequestsAndCtrlCEndsItWithZero() async throws {
        try await withSandbox { _, baseURL in
            _ = try await CheckoutBinary.fetch(baseURL + "/sandbox/health")
            // After entry 1 (the health check): what follows is printed as it arrives.
            let follower = try ChildProcess([CheckoutBinary.url.path, "journal", "--sandbox-url", baseURL, "--follow", "--since", "1", "--interval", "0.1"])
            let id = try await create(baseURL)
            let lines = try await lines(of: follower) { $0.contains { $0.contains("POST /customer-request/v1/requests 201") } }
            #expect(lines.count == 1, "only the request after --since, not the health check: \(lines)")
            #expect(lines.first?.contains("cashapp") == true)
            _ = try await CheckoutBinary.send("GET", baseURL + "/customer-request/v1/requests/\(id)", headers: Self.client)
            _ = try await self.lines(of: follower) { $0.count >= 2 }
            follower.signal(SIGINT)
            #expect(await follower.exit(timeout: 10) == 0, "\(follower.stderr)")
        }
    }

    @Test func aSandboxThatGoesAwayEndsTheFollowWith69() async throws {
        let started = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        let follower = try ChildProcess([CheckoutBinary.url.path, "journal", "--sandbox-url", started.firstLine, "--follow", "--interval", "0.1"])
        try await Task.sleep(for: .milliseconds(300))
        started.process.signal(SIGTERM)
        _ = started.process.waitForExit()
        let status = await follower.exit(timeout: 20)
        #expect(status == 69, "exit \(status): \(follower.stderr)")
        #expect(follower.stderr.contains("went away"), "\(follower.stderr)")
        let unreachable = try await CheckoutBinary.run(["journal", "--sandbox-url", started.firstLine])
        #expect(unreachable.status == 69, "\(unreachable.stderr)")
        let nowhere = try await CheckoutBinary.run(["journal"])
        #expect(nowhere.status == 64)
        #expect(nowhere.stderr.contains("--sandbox-url"), "\(nowhere.stderr)")
    }
}
