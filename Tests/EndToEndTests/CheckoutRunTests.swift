import Foundation
import Testing
import TestSupport

/// The real `checkout` binary, headless, against its embedded sandbox.
@Suite struct CheckoutRunTests {
    @Test func approveEndsApprovedWithExitZero() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "cashapp", "--customer", "approve"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.states.first == "notStarted")
        #expect(Array(outcome.states.dropFirst()) == ["creatingCustomerRequest", "readyToAuthorize", "redirecting", "polling", "approved"])
        #expect(outcome.lines.first { $0.hasPrefix("state: readyToAuthorize request=GRR_") } != nil)
        #expect(outcome.lines.last?.hasPrefix("result: approved") == true)
    }

    @Test func declineEndsDeclinedWithExitOne() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--customer", "decline"])
        #expect(outcome.status == 1)
        #expect(outcome.states.last == "declined")
    }

    @Test func magicAmount6670EndsInApiErrorWithExitTwo() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--amount", "6670"])
        #expect(outcome.status == 2)
        #expect(outcome.states.last == "apiError")
        #expect(outcome.lines.contains { $0.contains("code=INTERNAL_SERVER_ERROR") })
        #expect(outcome.stderr.contains("what to do:"))
    }

    @Test func magicDeclineAmountIsDeclinedWhenTheCustomerApproves() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--amount", "7773"])
        #expect(outcome.status == 1)
        #expect(outcome.states.last == "declined")
    }

    @Test func jsonPrintsOneObjectPerStateThenASummary() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--json"])
        #expect(outcome.status == 0)
        let objects = try outcome.lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let states = objects.compactMap { $0["state"] as? String }
        #expect(states == ["notStarted", "creatingCustomerRequest", "readyToAuthorize", "redirecting", "polling", "approved"])
        #expect(objects.dropLast().allSatisfy { $0["at_ms"] is Int })
        let summary = try #require(objects.last)
        #expect(summary["final_state"] as? String == "approved")
        #expect(summary["exit_status"] as? Int == 0)
        #expect(summary["amount"] as? Int == 4505)
    }

    /// `checkout run --json | head -n 1`: the reader leaves after one line; the run still ends
    /// as it would have (its transcript written, exit 0), where a write to the closed pipe trapped.
    @Test func aReaderThatLeavesEndsTheOutputNotTheRun() async throws {
        let folder = try ScratchFolder("closed-pipe")
        defer { folder.remove() }
        let transcript = folder.path("run.har")
        let errors = folder.path("stderr.txt")
        let script = #""$0" run --json --record "$1" 2> "$2" | head -n 1; echo "checkout exited ${PIPESTATUS[0]}""#
        let child = try ChildProcess(["/bin/bash", "-c", script, CheckoutBinary.url.path, transcript, errors])
        #expect(await child.exit(timeout: 60) == 0)
        let lines = child.stdout.split(separator: "\n")
        #expect(lines.first?.contains("\"state\":\"notStarted\"") == true, "\(child.stdout)")
        #expect(lines.last == "checkout exited 0", "\(child.stdout)")
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(!stderr.contains("Fatal error"), "\(stderr)")
        #expect(FileManager.default.fileExists(atPath: transcript), "\(stderr)")
    }

    @Test(arguments: [
        (["run", "--provider", "paypal"], "paypal"),
        (["run", "--amount", "0"], "--amount"),
        (["run", "--customer", "maybe"], "maybe"),
        (["run", "--cashapp-url", "https://sandbox.api.cash.app"], "CASHAPP_CLIENT_ID"),
        (["run", "--cashapp-url", "not a url", "--client-id", "CAS-CI_x", "--brand-id", "BRAND_x"], "not an http(s) URL"),
        // Negative numbers are read as numbers (not as a missing value) and refused by range.
        (["run", "--timeout", "-1"], "--timeout must be a number of seconds from 1 to 86400, got -1"),
        (["run", "--amount", "-5"], "--amount must be a number of cents from 1 to 99999999999, got -5"),
        (["sandbox", "--port", "-1"], "--port must be 0...65535, got -1"),
        (["run", "--retry-base-ms", "-3"], "--retry-base-ms must be a number of milliseconds from 0 to 60000, got -3"),
        (["run", "--retry-base-ms", "9223372036854775807"], "from 0 to 60000"),
        // Files that are not files: each says what it is and what to give instead.
        (["run", "/tmp"], "is a directory; give the path of a .yaml or .json scenario"),
        (["run", "/dev/null"], "is not a regular file"),
        (["run", ""], "is an empty path"),
        (["run", "--record", ""], "transcript \"\" is an empty path; give a file name such as checkout.har"),
        (["run", "--record", "/dev/null"], "is not a regular file"),
        (["replay", "--headless", "/tmp"], "is a directory"),
        (["run", "--fault", "POST /x teapot"], "not a fault kind"),
        (["run", "--fault", "POST /x 500", "--cashapp-url", "https://x.example", "--client-id", "CAS-CI_x", "--brand-id", "B"], "--fault needs a sandbox"),
        (["run", "--sandbox-url", "ftp://x"], "--sandbox-url"),
        // Oversized numbers are refused where they enter, never trap.
        (["run", "--request-lifetime", "1e308"], "from 1 to 604800"),
        (["run", "--trigger-rotation", "inf"], "from 1 to 3600"),
        (["sandbox", "--request-lifetime", "1e308"], "from 1 to 604800"),
        (["run", "--customer", "approve-after 1e308"], "approve-after 1e308"),
        (["run", "--sandbox-url", "http://127.0.0.1:99999"], "port from 1 to 65535"),
        (["run", "--amount", "999999999999"], "from 1 to 99999999999"),
        (["run", "--timeout", "9999999"], "from 1 to 86400"),
    ])
    func badFlagsAreUsageErrors(arguments: [String], mentions: String) async throws {
        let outcome = try await CheckoutBinary.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains(mentions), "\(outcome.stderr)")
    }

    @Test func aSandboxURLWithAPathThatAnswers404SaysToCheckTheBaseURL() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run(["run", "--sandbox-url", baseURL + "/nowhere"])
        #expect(outcome.status == 2)
        #expect(outcome.states.last == "integrationError", "\(outcome.stdout)")
        #expect(outcome.stdout.contains("check the base URL"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("NIL_DATA"))
    }

    @Test func anHTTPSSandboxURLSaysToUseHTTPAndNamesNoBuildPath() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let https = baseURL.replacingOccurrences(of: "http://", with: "https://")
        let outcome = try await CheckoutBinary.run(["run", "--sandbox-url", https, "--retry-base-ms", "1"])
        #expect(outcome.status == 2)
        #expect(outcome.states.last == "networkError", "\(outcome.stdout)")
        #expect(outcome.stdout.contains("use http://, not https://"), "\(outcome.stdout)")
        #expect(!(outcome.stdout + outcome.stderr).contains(".build"), "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test(arguments: [
        (["--fault", "POST /customer-request/v1/requests 500"], "apiError", Int32(2)),
        (["--fault", "POST /customer-request/v1/requests 503"], "apiError", Int32(2)),
        (["--fault", "POST /customer-request/v1/requests 429"], "integrationError", Int32(2)),
        (["--fault", "GET /customer-request/v1/requests reset*5", "--retry-base-ms", "5"], "networkError", Int32(2)),
        (["--fault", "GET /customer-request/v1/requests malformed*5", "--retry-base-ms", "5"], "networkError", Int32(2)),
        (["--fault", "POST /customer-request/v1/requests reset", "--retry-base-ms", "5"], "approved", Int32(0)),
    ])
    func injectedFaultsEndInTheirStates(fault: [String], state: String, status: Int32) async throws {
        let outcome = try await CheckoutBinary.run(["run"] + fault)
        #expect(outcome.states.last == state, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.status == status)
    }

    @Test func aRecoveredFaultShowsEveryAttempt() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--fault", "POST /customer-request/v1/requests reset", "--retry-base-ms", "5"])
        #expect(outcome.stderr.contains("http: POST /customer-request/v1/requests attempt 1 failed"))
        #expect(outcome.status == 0)
    }

    @Test func authorizingWithTriggersAboutToRotateGoesThroughRefreshing() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--trigger-rotation", "5"])
        #expect(outcome.status == 0)
        #expect(Array(outcome.states.dropFirst()) == [
            "creatingCustomerRequest", "readyToAuthorize", "refreshing", "redirecting", "polling", "approved",
        ])
    }

    @Test func anExpiredRequestIsDeclined() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--request-lifetime", "1", "--customer", "none"])
        #expect(outcome.status == 1)
        #expect(outcome.states.last == "declined")
        #expect(outcome.stderr.contains("open http://127.0.0.1:"))
    }

    @Test func plainCheckoutWithoutATerminalSaysWhatToUseInstead() async throws {
        let outcome = try await CheckoutBinary.run([])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("needs a terminal"))
        #expect(outcome.stderr.contains("checkout run"))
    }

    @Test func helpListsTheSubcommands() async throws {
        let outcome = try await CheckoutBinary.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("USAGE: checkout"))
        #expect(outcome.stdout.contains("run"))
        #expect(outcome.stdout.contains("sandbox"))
    }
}

/// `checkout sandbox` alone, and `checkout run` pointed at it as an external host.
@Suite struct StandaloneSandboxTests {
    @Test func runAgainstAnExternalHostPollsUntilTheTimeoutAndNeverPrintsTheClientID() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        #expect(baseURL.hasPrefix("http://127.0.0.1:"))
        let secret = "CAS-CI_VERY_SECRET_123"
        let outcome = try await CheckoutBinary.run(
            ["run", "--cashapp-url", baseURL, "--brand-id", "BRAND_shop", "--timeout", "2", "--json"],
            environment: ["CASHAPP_CLIENT_ID": secret])
        #expect(outcome.status == 2)
        let states = outcome.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["state"] as? String
        }
        #expect(states.last == "unexpectedError")
        #expect(outcome.stdout.contains("AUTHORIZATION_TIMEOUT"))
        #expect(!outcome.stdout.contains(secret))
        #expect(!outcome.stderr.contains(secret))
    }

    @Test func aSharedSandboxServesTheCustomerAndTheFaults() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let approved = try await CheckoutBinary.run(["run", "--sandbox-url", baseURL])
        #expect(approved.status == 0)
        #expect(approved.states.last == "approved")
        let faulted = try await CheckoutBinary.run(["run", "--sandbox-url", baseURL, "--fault", "POST /customer-request 503"])
        #expect(faulted.states.last == "apiError")
        #expect(faulted.stdout.contains("SERVICE_UNAVAILABLE"))
    }

    @Test func aBadClientIDIsAnIntegrationError() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run(["run", "--cashapp-url", baseURL, "--client-id", "live_key", "--brand-id", "BRAND_x"])
        #expect(outcome.status == 2)
        #expect(outcome.states.last == "integrationError")
        #expect(outcome.stdout.contains("code=UNAUTHORIZED"))
    }
}

/// Cash App Pay through an Afterpay merchant account, through the real binary.
@Suite struct AfterpayRunTests {
    private func sequence(_ outcome: CheckoutBinary.Outcome) -> [String] {
        outcome.lines.filter { $0.hasPrefix("state: ") || $0.hasPrefix("phase: ") }.map { line in
            String(line.prefix { $0 != " " }.dropLast()) + " " + String(line.split(separator: " ")[1])
        }
    }

    @Test func approveRunsEveryPhaseAndEndsCompleted() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "afterpay", "--customer", "approve"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(sequence(outcome) == [
            "state notStarted", "phase token", "phase signing", "state creatingCustomerRequest", "state readyToAuthorize",
            "state redirecting", "state polling", "state approved", "phase validating", "phase capturing", "phase completed",
        ])
        let completed = try #require(outcome.lines.first { $0.hasPrefix("phase: completed") })
        #expect(completed.contains("payment="))
        #expect(completed.contains("cashtag=$SandboxShopper"))
    }

    @Test func aFailedValidationEndsNonZeroWithTheReason() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "afterpay", "--amount", "5550"])
        #expect(outcome.status == 2)
        #expect(outcome.lines.contains { $0.hasPrefix("phase: settlementFailed") })
        #expect(!outcome.lines.contains { $0.hasPrefix("phase: capturing") })
        #expect(outcome.stderr.contains("settlement failed: validation answered INVALID"))
    }

    @Test func aDeclinedCaptureEndsNonZeroWithTheReason() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "afterpay", "--amount", "4440"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("settlement failed: capture DECLINED"))
    }

    @Test func aCaptureRetriedAfterALostResponseCapturesOnce() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "afterpay", "--sandbox-url", baseURL,
            "--fault", "POST /v2/payments/capture reset", "--retry-base-ms", "5",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("POST /v2/payments/capture attempt 1 failed"))
        let ledger = try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger")
        let captures = try #require((try JSONSerialization.jsonObject(with: ledger) as? [String: Any])?["captures"] as? [[String: Any]])
        #expect(captures.count == 1)
        #expect(captures.first?["captures"] as? Int == 1)
        #expect(captures.first?["capture_requests"] as? Int == 2)
    }

    /// Found by the soak (seed 20261122, checkout 640): two lost capture responses, then a 500,
    /// ended "settlement failed" although the first attempt had moved the money.
    @Test func aCaptureThatFailsAfterALostResponseLooksUpThePaymentBeforeSayingItFailed() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "afterpay", "--sandbox-url", baseURL, "--retry-base-ms", "5",
            "--fault", "POST /v2/payments/capture reset*2", "--fault", "POST /v2/payments/capture 500",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.lines.contains { $0.hasPrefix("phase: completed") })
        let ledger = try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger")
        let captures = try #require((try JSONSerialization.jsonObject(with: ledger) as? [String: Any])?["captures"] as? [[String: Any]])
        #expect(captures.map { $0["captures"] as? Int } == [1])
    }

    @Test func aCaptureThatNeverHappenedStillFailsWithNoMoneyMoved() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "afterpay", "--sandbox-url", baseURL, "--retry-base-ms", "5",
            "--fault", "POST /v2/payments/capture 503",
        ])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("settlement failed: capture failed: HTTP 503"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("GET /v2/payments/token:") == false)
        let ledger = try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger")
        let captures = try #require((try JSONSerialization.jsonObject(with: ledger) as? [String: Any])?["captures"] as? [[String: Any]])
        #expect(captures.allSatisfy { $0["captures"] as? Int == 0 })
    }

    /// The seed: a failed sign-payment is retried "with a new token": a second Create Checkout,
    /// signed, and the order is captured once (the unsigned token never is).
    @Test func aSigningFailureIsRetriedOnceWithANewTokenAndCapturesOnce() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "afterpay", "--sandbox-url", baseURL, "--amount", "3330",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(Array(sequence(outcome).prefix(5)) == ["state notStarted", "phase token", "phase signing", "phase token", "phase signing"])
        #expect(sequence(outcome).last == "phase completed")
        let ledger = try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger")
        let captures = try #require((try JSONSerialization.jsonObject(with: ledger) as? [String: Any])?["captures"] as? [[String: Any]])
        #expect(captures.map { $0["captures"] as? Int } == [1])
    }

    /// A signing that fails again after the retry ends in the SDK's error state for Afterpay's
    /// 500: apiError (hide Cash App Pay for a while, as the seed says), nothing captured.
    @Test func aSigningThatFailsAgainEndsInAPIErrorWithNothingCaptured() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "afterpay", "--sandbox-url", baseURL, "--amount", "3331",
        ])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.states.last == "apiError")
        #expect(sequence(outcome).filter { $0 == "phase token" }.count == 2)
        #expect(outcome.stdout.contains("signing failed again after retrying with a new checkout token"), "\(outcome.stdout)")
        #expect(!outcome.lines.contains { $0.hasPrefix("state: creatingCustomerRequest") })
        let ledger = try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger")
        let captures = try #require((try JSONSerialization.jsonObject(with: ledger) as? [String: Any])?["captures"] as? [[String: Any]])
        #expect(captures.isEmpty)
    }

    /// A sandbox Afterpay account with production Cash App (or the reverse) is refused before
    /// any call, naming both hosts.
    @Test(arguments: [
        (["https://global-api-sandbox.afterpay.com", "https://api-plus.us-sandbox.afterpay.com", "https://api.cash.app"],
         "the Afterpay account is sandbox (global-api-sandbox.afterpay.com) but --cashapp-url is production (api.cash.app)"),
        (["https://global-api.afterpay.com", "https://api-plus.us.afterpay.com", "https://sandbox.api.cash.app"],
         "the Afterpay account is production (global-api.afterpay.com) but --cashapp-url is sandbox (sandbox.api.cash.app)"),
    ])
    func mismatchedEnvironmentsAreRefusedBeforeAnyCall(urls: [String], message: String) async throws {
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "afterpay", "--afterpay-url", urls[0], "--afterpay-signing-url", urls[1],
            "--afterpay-merchant-id", "100101", "--afterpay-secret-key", "k", "--cashapp-url", urls[2],
            "--client-id", "CAS-CI_x", "--brand-id", "BRAND_x",
        ])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(!outcome.lines.contains { $0.hasPrefix("phase: token") })
    }

    /// The embedded sandbox's Afterpay is a sandbox account: with production Cash App the
    /// checkout ends in integrationError before any call.
    @Test func theEmbeddedSandboxWithProductionCashAppEndsBeforeAnyCall() async throws {
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "afterpay", "--cashapp-url", "https://api.cash.app", "--client-id", "CA-CI_x", "--brand-id", "BRAND_x",
        ])
        #expect(outcome.states.last == "integrationError", "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("the Afterpay account is sandbox (the checkout's sandbox) but --cashapp-url is production (api.cash.app)"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("0 HTTP exchanges"), "\(outcome.stdout)")
        #expect(!outcome.lines.contains { $0.hasPrefix("phase: token") })
    }

    @Test func anAfterpayOutageBeforeTheRequestIsAnAPIError() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "afterpay", "--fault", "POST /v2/checkouts 503"])
        #expect(outcome.status == 2)
        #expect(outcome.states.last == "apiError")
    }
}
