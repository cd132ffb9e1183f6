import Foundation
import Testing
import TestSupport

/// `checkout run --provider square`: the real binary against its embedded or a shared sandbox.
@Suite struct SquareRunTests {
    private func objects(_ outcome: CheckoutBinary.Outcome) -> [[String: Any]] {
        outcome.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func summary(_ outcome: CheckoutBinary.Outcome) throws -> [String: Any] {
        try #require(objects(outcome).last { $0["summary"] as? Bool == true }, "\(outcome.stdout)\(outcome.stderr)")
    }

    /// Each line's state or phase, in order.
    private func sequence(_ outcome: CheckoutBinary.Outcome) -> [String] {
        outcome.lines.compactMap { line in
            if line.hasPrefix("state: ") { return "state " + line.dropFirst(7).prefix { $0 != " " } }
            if line.hasPrefix("phase: ") { return "phase " + line.dropFirst(7).prefix { $0 != " " } }
            return nil
        }
    }

    private func squarePayments(_ baseURL: String) async throws -> [[String: Any]] {
        let ledger = try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger")
        return try #require((try JSONSerialization.jsonObject(with: ledger) as? [String: Any])?["square_payments"] as? [[String: Any]])
    }

    /// The soak found it: a complete whose answer is lost (the connection reset after Square
    /// completed it) is retried and hears "already COMPLETED"; the sale is complete, not failed.
    @Test func aSplitSaleWhoseCompleteAnswerIsLostIsStillCompleted() async throws {
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--accept-partial-authorization", "--card", "gift,ok", "--then", "complete", "--tip", "0",
            "--fault", "POST /v2/payments/ reset", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains(#""event":"complete-confirmed""#), "\(outcome.stdout)")
        #expect(outcome.stdout.contains(#""final_phase":"completed""#), "\(outcome.stdout)")
    }

    @Test func aTappedCardIsPaidAndTheReaderFactsReachThePayment() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "square", "--card", "ok", "--tip", "0"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(sequence(outcome) == ["state notStarted", "state creatingCustomerRequest", "state approved", "phase completed"])
        let completed = try #require(outcome.lines.first { $0.hasPrefix("phase: completed") })
        for fact in ["status=COMPLETED", "entry_method=CONTACTLESS", "card_brand=VISA", "last_4=1111", "aid=A0000000031010", "application_name=\"VISA CREDIT\""] {
            #expect(completed.contains(fact), "\(fact) in \(completed)")
        }
        #expect(completed.range(of: #"receipt_number=[0-9A-Z]{4} "#, options: .regularExpression) != nil, "\(completed)")
    }

    @Test(arguments: [
        ("ok", Int32(0), "approved", "COMPLETED"), ("declined", 1, "declined", "GENERIC_DECLINE"), ("cvv", 1, "declined", "CVV_FAILURE"),
        ("postal", 1, "declined", "ADDRESS_VERIFICATION_FAILURE"), ("expired", 1, "declined", "INVALID_EXPIRATION"),
        ("insufficient", 1, "declined", "INSUFFICIENT_FUNDS"), ("used", 2, "integrationError", "CARD_TOKEN_USED"),
    ])
    func everyTestCardEndsAsSquareSays(card: String, status: Int32, state: String, code: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "square", "--card", card, "--tip", "0"])
        #expect(outcome.status == status, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.states.last == state, "\(outcome.stdout)")
        #expect(outcome.stdout.contains(code), "\(outcome.stdout)")
    }

    @Test func theTipAndAppFeeAreInTheTotalsAndOnTheReceipt() async throws {
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--card", "ok", "--entry", "insert", "--amount", "1000", "--tip", "250", "--app-fee", "40", "--receipt", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let result = try summary(outcome)
        #expect(result["tip"] as? String == "250")
        #expect(result["app_fee"] as? String == "40")
        #expect(result["total"] as? String == "1250")
        #expect(result["entry_method"] as? String == "EMV")
        #expect((result["receipt_url"] as? String)?.contains("/sandbox/square/receipts/") == true)
        let receipt = try #require(result["receipt"] as? [String])
        #expect(receipt.contains { $0.hasPrefix("Tip") && $0.hasSuffix("$2.50") }, "\(receipt)")
        #expect(receipt.contains { $0.hasPrefix("Total") && $0.hasSuffix("$12.50") }, "\(receipt)")
        #expect(receipt.contains { $0.contains("Chip (insert)") } && receipt.contains { $0.contains("Ada Lovelace") }, "\(receipt)")
    }

    @Test func theReceiptPrintsAsText() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "square", "--card", "ok", "--entry", "keyed", "--tip", "100", "--receipt"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        for text in ["| Receipt #", "Visa •••• 1111", "Keyed", "Ada Lovelace", "| Tip", "$1.00"] {
            #expect(outcome.stdout.contains(text), "\(text) in \(outcome.stdout)")
        }
    }

    @Test func theCustomerBehaviourPresentsACardAtTheReader() async throws {
        let declined = try await CheckoutBinary.run(["run", "--provider", "square", "--customer", "decline"])
        #expect(declined.status == 1, "\(declined.stdout)\(declined.stderr)")
        #expect(sequence(declined).prefix(3) == ["state notStarted", "phase tip", "phase reader"])
        #expect(declined.stderr.contains("customer: reader: tap declined"), "\(declined.stderr)")
        let nobody = try await CheckoutBinary.run(["run", "--provider", "square", "--customer", "none", "--timeout", "2"])
        #expect(nobody.status == 2, "\(nobody.stdout)\(nobody.stderr)")
        #expect(nobody.states.last == "unexpectedError")
    }

    @Test(arguments: [
        (["--then", "complete"], "COMPLETED", "completing", "2"),
        (["--then", "cancel"], "CANCELED", "canceling", "2"),
        (["--then", "expire"], "CANCELED", "authorized", "600"),
        (["--then", "expire", "--delay-action", "COMPLETE"], "COMPLETED", "authorized", "600"),
    ])
    func aDelayedPaymentEndsAsAsked(flags: [String], status: String, lastStep: String, timeScale: String) async throws {
        // With 600 sandbox seconds a second a one-minute delay passes in a tenth of a second;
        // with 2, in half a minute (the complete or cancel comes long before).
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0", "--time-scale", timeScale])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run(
            ["run", "--provider", "square", "--sandbox-url", baseURL, "--card", "ok", "--tip", "0", "--delay", "PT1M", "--json"] + flags)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let phases = objects(outcome).compactMap { $0["phase"] as? String }
        #expect(phases.first == "authorized" && phases.dropLast().last == lastStep, "\(phases)")
        #expect(try summary(outcome)["status"] as? String == status)
        // A voided authorization says so in the summary (`charged: false`); a captured one does not.
        #expect((try summary(outcome)["charged"] as? Bool) == (status == "CANCELED" ? false : nil))
        let payments = try await squarePayments(baseURL)
        #expect(payments.count == 1)
        #expect(payments.first?["moved"] as? Int == (status == "COMPLETED" ? 4505 : 0), "money moved only for a completed payment: \(payments)")
    }

    /// Issue 28: a tip added by UpdatePayment once APPROVED, then completed: the receipt and the
    /// ledger show the final total.
    @Test func aTipAddedAfterAuthorizationIsInTheReceiptAndTheLedger() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--sandbox-url", baseURL, "--card", "ok", "--tip", "0", "--delay", "PT10M", "--then", "tip:300,complete",
            "--receipt",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("Tip     $3.00") && outcome.stdout.contains("Total   $48.05"), "\(outcome.stdout)")
        // The result line says what the sale came to, not only what was asked.
        #expect(outcome.stdout.contains("completed after") && outcome.stdout.contains("$48.05 (asked $45.05)"), "\(outcome.stdout)")
        let payments = try await squarePayments(baseURL)
        #expect(payments.count == 1 && payments.first?["tip"] as? Int == 300 && payments.first?["total"] as? Int == 4805, "\(payments)")
        #expect(payments.first?["moved"] as? Int == 4805 && payments.first?["status"] as? String == "COMPLETED", "\(payments)")
    }

    /// The soak found it: a split sale whose first payment cannot be completed must not charge
    /// the card for the rest; every payment is voided and nothing moves.
    @Test func aSaleThatCannotBeCompletedIsVoidedWhole() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--sandbox-url", baseURL, "--accept-partial-authorization", "--card", "gift,ok", "--tip", "0",
            "--then", "complete", "--retry-base-ms", "1", "--fault", "POST /v2/payments/ 503*5", "--json",
        ])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains(#""event":"complete-failed""#), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("nothing was charged"), "\(outcome.stderr)")
        let payments = try await squarePayments(baseURL)
        #expect(payments.map { $0["status"] as? String } == ["CANCELED", "CANCELED"], "\(payments)")
        #expect(payments.reduce(0) { $0 + ($1["moved"] as? Int ?? 0) } == 0, "\(payments)")
    }

    /// One payment that cannot be completed is voided; when Square refuses the cancel too, the
    /// reason says it is still open and its delay action applies.
    @Test(arguments: [(5, "CANCELED"), (12, "APPROVED")])
    func aPaymentThatCannotBeCompletedIsVoided(faults: Int, status: String) async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--sandbox-url", baseURL, "--card", "ok", "--tip", "0", "--then", "complete",
            "--retry-base-ms", "1", "--fault", "POST /v2/payments/ 503*\(faults)",
        ])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        let payments = try await squarePayments(baseURL)
        #expect(payments.map { $0["status"] as? String } == [status], "\(payments)")
        let expected = status == "CANCELED" ? "nothing was charged" : "still open:"
        #expect(outcome.stderr.contains(expected), "\(outcome.stderr)")
    }

    /// Issue 28: the gift card's partial authorization and a card for the rest, completed (both
    /// payments on the receipt; together the sale) or cancelled (both voided, nothing moved).
    @Test(arguments: ["complete", "cancel"])
    func aGiftCardAndACardPayOneSale(then: String) async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--sandbox-url", baseURL, "--card", "gift,ok", "--tip", "0", "--accept-partial-authorization",
            "--then", then, "--receipt",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let payments = try await squarePayments(baseURL)
        #expect(payments.map { $0["total"] as? Int } == [1000, 3505], "\(payments)")
        #expect(Set(payments.map { $0["reference_id"] as? String }).count == 1, "one sale, one reference: \(payments)")
        let moved = payments.reduce(0) { $0 + ($1["moved"] as? Int ?? 0) }
        #expect(moved == (then == "complete" ? 4505 : 0), "\(payments)")
        if then == "complete" {
            #expect(outcome.stdout.contains("Sale in 2 payments") && outcome.stdout.contains("Gift card •••• 0000"), "\(outcome.stdout)")
        }
    }

    /// Issue 28: after a decline the next card keeps the reference with a new idempotency key.
    @Test func anotherCardAfterADeclineKeepsTheReference() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run(["run", "--provider", "square", "--sandbox-url", baseURL, "--card", "declined,ok", "--tip", "0"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let payments = try await squarePayments(baseURL)
        #expect(payments.map { $0["status"] as? String } == ["FAILED", "COMPLETED"], "\(payments)")
        #expect(Set(payments.map { $0["reference_id"] as? String }).count == 1, "\(payments)")
        #expect(Set(payments.map { $0["idempotency_key"] as? String }).count == 2, "\(payments)")
    }

    @Test func aLostAnswerIsAdoptedFromTheListAndChargesOnce() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--sandbox-url", baseURL, "--card", "ok", "--tip", "0", "--fault", "POST /v2/payments reset",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.lines.contains { $0.hasPrefix("event: ") && $0.contains("adopted") }, "\(outcome.stdout)")
        let payments = try await squarePayments(baseURL)
        #expect(payments.count == 1, "\(payments)")
    }

    @Test func aRequestThatNeverArrivedIsSentAgainWithANewKeyAndTheSameReference() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--sandbox-url", baseURL, "--card", "ok", "--tip", "0", "--fault", "POST /v2/payments drop", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let events = objects(outcome).compactMap { $0["event"] as? String }
        #expect(events == ["lost-response", "retry"], "\(events)")
        let payments = try await squarePayments(baseURL)
        #expect(payments.count == 1, "\(payments)")
        #expect((payments.first?["idempotency_key"] as? String)?.hasSuffix("-r1") == true, "\(payments)")
        #expect(payments.first?["reference_id"] as? String == (try summary(outcome))["reference_id"] as? String)
    }

    @Test func anUnreachableSquareQueuesTheCardOfflineAndItUploadsOnceAfterAKill() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("square-offline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let environment = ["TERMINALCHECKOUT_DATA_DIR": data]
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        // Nothing listens on port 9: the request never leaves this machine.
        let child = try ChildProcess(
            [CheckoutBinary.url.path, "run", "--provider", "square", "--card", "ok", "--tip", "75", "--offline-capable", "--retry-base-ms", "5",
             "--square-url", "http://127.0.0.1:9", "--square-access-token", "EAAA-e2e-token"],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        let deadline = ContinuousClock.now + .seconds(30)
        while !child.stdout.contains("taken offline"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(child.stdout.contains("taken offline"), "\(child.stdout)\(child.stderr)")
        child.signal(SIGKILL)
        _ = await child.exit(timeout: 10)

        let queued = try await CheckoutBinary.run(["offline", "--json"], environment: environment)
        #expect(queued.status == 1, "still queued: \(queued.stdout)\(queued.stderr)")
        let entry = try #require(objects(queued).first)
        #expect(entry["state"] as? String == "queued")
        #expect(entry["total"] as? Int == 4505 + 75)

        // Started again with Square reachable: the next payment goes through, then the queue
        // uploads before the run ends (the session waits for it).
        let next = try await CheckoutBinary.run(
            ["run", "--provider", "square", "--card", "ok", "--tip", "0", "--offline-capable", "--sandbox-url", baseURL], environment: environment)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        let again = try await CheckoutBinary.run(["offline", "--upload", "--sandbox-url", baseURL], environment: environment)
        #expect(again.status == 0, "nothing left queued: \(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("uploaded as"), "\(again.stdout)")
        let payments = try await squarePayments(baseURL)
        #expect(payments.count == 2, "the queued payment once, and the next one: \(payments)")
        let offline = payments.filter { $0["offline"] as? Bool == true }
        #expect(offline.count == 1, "\(payments)")
        #expect(offline.first?["idempotency_key"] as? String == entry["idempotency_key"] as? String)
        #expect(offline.first?["total"] as? Int == 4505 + 75, "\(offline)")
    }

    @Test func aBadAccessTokenIsAnIntegrationErrorAndNeverPrinted() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "square", "--card", "ok", "--tip", "0", "--square-access-token", "not-a-token-xyz"])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.states.last == "integrationError")
        #expect(outcome.stdout.contains("UNAUTHORIZED"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("not-a-token-xyz") && !outcome.stderr.contains("not-a-token-xyz"))
    }

    @Test(arguments: [
        (["--card", "gold"], "--card must be one of ok, declined"),
        (["--entry", "wave"], "--entry must be one of tap, insert, swipe, keyed"),
        (["--delay", "10m"], "--delay must be an ISO 8601 duration"),
        (["--delay", "PT30S"], "at least one minute"),
        (["--autocomplete", "--then", "complete"], "does not go with"),
        (["--entry", "keyed", "--no-keyed-entry"], "keyed entry was removed"),
        (["--tip", "-5"], "--tip must be a whole number of minor units"),
        (["--then", "later"], "--then must be complete, cancel or expire"),
        (["--then", "tip:lots,complete"], "tip:MINOR-UNITS,complete|cancel"),
        (["--then", "tip:300,expire"], "tip:MINOR-UNITS,complete|cancel"),
        (["--autocomplete", "--accept-partial-authorization"], "does not go with --delay, --delay-action, --then or --accept-partial-authorization"),
        (["--card", "gift,nope"], "--card must be one of ok, declined, cvv, postal, expired, used, insufficient, gift"),
    ])
    func badOptionsSayWhatIsAllowed(flags: [String], message: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "square"] + flags)
        #expect(outcome.status == 64, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }
}
