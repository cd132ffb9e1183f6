import Foundation
import Testing
import TestSupport

/// `checkout run --provider square --prompt custom`: the merchant-drawn prompt's reader changes,
/// the payment handle's cancel before and after the card is read, `--delay` in seconds and the
/// SDK's processing modes, with the real binary against a sandbox it shares with the test.
@Suite struct SquareCustomPromptRunTests {
    private func objects(_ outcome: CheckoutBinary.Outcome) -> [[String: Any]] {
        outcome.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func summary(_ outcome: CheckoutBinary.Outcome) throws -> [String: Any] {
        try #require(objects(outcome).last { $0["summary"] as? Bool == true }, "\(outcome.stdout)\(outcome.stderr)")
    }

    private func squarePayments(_ baseURL: String) async throws -> [[String: Any]] {
        let ledger = try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger")
        return try #require((try JSONSerialization.jsonObject(with: ledger) as? [String: Any])?["square_payments"] as? [[String: Any]])
    }

    @Test func theReaderChangesAreReportedAndTheCardIsPresentedAWayTheReaderTakes() async throws {
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--tip", "0", "--prompt", "custom", "--reader-steps", "disconnect,connect,low-battery", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        try await SchemaValidator.expectValid(outcome.stdout, against: "run.schema.json")
        let readers = objects(outcome).filter { $0["event"] as? String == "reader" }
        #expect(readers.map { $0["change"] as? String } == ["disconnect", "connect", "low-battery"], "\(readers)")
        #expect(readers.map { $0["card_input_methods"] as? String } == ["", "tap,dip,swipe", "tap"], "\(readers)")
        #expect(readers.allSatisfy { $0["additional_methods"] as? String == "keyed" && $0["payment_cancelable"] as? Bool == true }, "\(readers)")
        // Low battery leaves contactless only: the scripted customer taps.
        #expect(try summary(outcome)["entry_method"] as? String == "CONTACTLESS")
    }

    @Test func anEntryTheReaderCannotTakeNowSaysWhatItCanTake() async throws {
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--tip", "0", "--card", "ok", "--entry", "swipe", "--prompt", "custom", "--reader-steps", "low-battery",
        ])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("CARD_INPUT_METHOD_UNAVAILABLE") && outcome.stdout.contains("available: tap, keyed"), "\(outcome.stdout)")
        let keyless = try await CheckoutBinary.run([
            "run", "--provider", "square", "--tip", "0", "--card", "ok", "--no-keyed-entry", "--prompt", "custom", "--reader-steps", "disconnect",
        ])
        #expect(keyless.status == 2, "\(keyless.stdout)\(keyless.stderr)")
        #expect(keyless.stdout.contains("NO_CARD_INPUT_METHOD"), "\(keyless.stdout)")
    }

    @Test func cancelledBeforeTheCardIsReadNothingIsCreated() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--sandbox-url", baseURL, "--tip", "0", "--prompt", "custom", "--reader-steps", "low-battery,cancel", "--json",
        ])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        try await SchemaValidator.expectValid(outcome.stdout, against: "run.schema.json")
        let cancelled = try #require(objects(outcome).first { $0["event"] as? String == "cancelled" }, "\(outcome.stdout)")
        #expect(cancelled["outcome"] as? String == "cancelled" && cancelled["card_read"] as? Bool == false, "\(cancelled)")
        let result = try summary(outcome)
        #expect(result["final_state"] as? String == "declined" && result["http_exchanges"] as? Int == 0, "\(result)")
        #expect(outcome.stdout.contains("PAYMENT_CANCELED"), "\(outcome.stdout)")
        #expect(try await squarePayments(baseURL).isEmpty, "nothing created at Square")
    }

    @Test func cancelledAfterTheCardIsReadIsVoidedByIdempotencyKey() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let har = FileManager.default.temporaryDirectory.appendingPathComponent("square-handle-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: har) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "square", "--sandbox-url", baseURL, "--tip", "0", "--prompt", "custom", "--delay", "600", "--then", "cancel",
            "--json", "--record", har,
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        try await SchemaValidator.expectValid(outcome.stdout, against: "run.schema.json")
        let result = try summary(outcome)
        #expect(result["status"] as? String == "CANCELED" && result["sdk_outcome"] as? String == "cancelled", "\(result)")
        let cancelled = try #require(objects(outcome).first { $0["event"] as? String == "cancelled" }, "\(outcome.stdout)")
        #expect(cancelled["card_read"] as? Bool == true, "\(cancelled)")
        let recorded = try String(contentsOfFile: har, encoding: .utf8)
        #expect(recorded.contains("payments/cancel\"") || recorded.contains("payments\\/cancel\""), "CancelPaymentByIdempotencyKey was called")
        let payments = try await squarePayments(baseURL)
        #expect(payments.count == 1 && payments.first?["status"] as? String == "CANCELED" && payments.first?["moved"] as? Int == 0, "\(payments)")
    }

    /// `--delay` in seconds as the SDK's delayDuration: 600 is ten minutes; 0 is Square's default
    /// (36 hours for a tapped card, 7 days for a keyed one).
    @Test(arguments: [(["--delay", "600"], 600.0), (["--delay", "0"], 36 * 3600.0), (["--delay", "0", "--entry", "keyed"], 7 * 86_400.0)])
    func theDelayInSecondsSetsWhenSquareActs(flags: [String], seconds: Double) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "square", "--card", "ok", "--tip", "0", "--then", "complete", "--json"] + flags)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let until = try #require(try summary(outcome)["delayed_until"] as? String, "\(outcome.stdout)")
        let date = try #require(try? Date(until, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)), "\(until)")
        #expect(abs(date.timeIntervalSinceNow - seconds) < 120, "\(until) is about \(seconds) s away")
    }

    @Test func offlineOnlyQueuesWithoutTryingSquare() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("square-offline-only-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let environment = ["TERMINALCHECKOUT_DATA_DIR": data]
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run(
            ["run", "--provider", "square", "--sandbox-url", baseURL, "--card", "ok", "--tip", "0", "--processing-mode", "offline-only", "--json"],
            environment: environment)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let result = try summary(outcome)
        #expect(result["status"] as? String == "QUEUED_OFFLINE" && result["http_exchanges"] as? Int == 0, "\(result)")
        #expect(try await squarePayments(baseURL).isEmpty, "Square was not tried")
        let uploaded = try await CheckoutBinary.run(["offline", "--upload", "--sandbox-url", baseURL], environment: environment)
        #expect(uploaded.status == 0 && uploaded.stdout.contains("uploaded as"), "\(uploaded.stdout)\(uploaded.stderr)")
    }

    @Test(arguments: [
        (["--prompt", "mine"], "--prompt must be default or custom"),
        (["--reader-steps", "disconnect"], "--reader-steps needs --prompt custom"),
        (["--prompt", "custom", "--reader-steps", "unplug"], "--reader-steps must be 1 to 32 of connect, disconnect, low-battery, charged, cancel"),
        (["--delay", "30"], "--delay must be at least 60 seconds (or 0 for Square's default"),
        (["--delay", "1234567890"], "--delay must be at most 999999999 seconds"),
        (["--processing-mode", "online"], "--processing-mode must be one of online-only, offline-only, auto-detect"),
        (["--processing-mode", "offline-only", "--offline-capable"], "--offline-capable is --processing-mode auto-detect"),
    ])
    func badSDKOptionsSayWhatIsAllowed(flags: [String], message: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "square"] + flags)
        #expect(outcome.status == 64, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }
}
