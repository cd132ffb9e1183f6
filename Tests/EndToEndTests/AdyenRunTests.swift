import Foundation
import ProviderWire
import Testing
import TestSupport

/// `checkout run --provider adyen`: the real binary against its embedded or a shared sandbox.
@Suite struct AdyenRunTests {
    private func objects(_ outcome: CheckoutBinary.Outcome) throws -> [[String: Any]] {
        try outcome.lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// Each line's state or phase, in order.
    private func sequence(_ outcome: CheckoutBinary.Outcome) -> [String] {
        outcome.lines.compactMap { line in
            if line.hasPrefix("state: ") { return "state " + line.dropFirst(7).prefix { $0 != " " } }
            if line.hasPrefix("phase: ") { return "phase " + line.dropFirst(7).prefix { $0 != " " } }
            return nil
        }
    }

    /// The default flow: a session, the component's setup, payment and the session's result.
    @Test func theSessionsFlowIsTheDefault() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--customer", "approve", "--json"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let lines = try objects(outcome)
        #expect(lines.compactMap { $0["phase"] as? String } == ["session", "sessionPayment", "sessionResult", "completed"])
        let summary = try #require(lines.last)
        #expect(summary["flow"] as? String == "sessions")
        #expect((summary["session_id"] as? String)?.hasPrefix("CS") == true, "\(summary)")
        #expect(summary["session_status"] as? String == "completed")
        #expect(summary["result_code"] as? String == "Authorised")
        #expect((summary["psp_reference"] as? String)?.count == 16)
    }

    /// The component's calls carry the client key only: the API key never goes to the client-key host.
    @Test func theAPIKeyNeverTravelsToTheClientKeyHost() async throws {
        let har = FileManager.default.temporaryDirectory.appendingPathComponent("adyen-sessions-\(UUID().uuidString).har").path
        defer { try? FileManager.default.removeItem(atPath: har) }
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--amount", "7006", "--record", har])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: har))) as? [String: Any])
        let entries = ((document["log"] as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
        let component = entries.compactMap { $0["request"] as? [String: Any] }.filter { ($0["url"] as? String)?.contains("/checkoutshopper/v1/sessions/") == true }
        #expect(component.count == 3, "setup, payments, paymentDetails: \(component.map { $0["url"] ?? "" })")
        for request in component {
            let headers = (request["headers"] as? [[String: Any]] ?? []).compactMap { ($0["name"] as? String)?.lowercased() }
            #expect(!headers.contains("x-api-key"), "\(request["url"] ?? "")")
            #expect((request["url"] as? String)?.contains("clientKey=test_") == true)
        }
        // The API key the run used is redacted wherever it went (the Checkout API's calls).
        #expect(!(try String(contentsOfFile: har, encoding: .utf8)).contains("AQE_terminalcheckout_sandbox_key"))
    }

    /// Magic 70.06: an action comes back and is completed through (the session's) payment details.
    @Test(arguments: [("sessions", ["session", "sessionPayment", "details", "sessionResult", "completed"]), ("advanced", ["methods", "authorising", "details", "completed"])])
    func anActionIsCompletedThroughTheDetailsCall(flow: String, phases: [String]) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--adyen-flow", flow, "--amount", "7006", "--json"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let lines = try objects(outcome)
        #expect(lines.compactMap { $0["phase"] as? String } == phases)
        #expect(lines.last?["result_code"] as? String == "Authorised")
        #expect(lines.last?["flow"] as? String == flow)
    }

    /// The issue's defect: Adyen's real host with Cash App's starts without Cash App's client id
    /// (here both are unreachable, so it ends in networkError, not in a refusal to start).
    @Test func cashAppsURLDoesNotDemandTheClientIDAdyenGives() async throws {
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "adyen", "--adyen-url", "http://127.0.0.1:9/v71", "--adyen-api-key", "AQE_x", "--adyen-merchant-account", "M",
            "--adyen-client-key", "test_ABCDEFGH12345678", "--cashapp-url", "http://127.0.0.1:9", "--retry-base-ms", "1",
        ])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(!outcome.stderr.contains("needs your client id"), "\(outcome.stderr)")
        #expect(outcome.states.last == "networkError")
        let direct = try await CheckoutBinary.run(["run", "--provider", "cashapp", "--cashapp-url", "http://127.0.0.1:9"])
        #expect(direct.status == 64 && direct.stderr.contains("--cashapp-url needs your client id"), "\(direct.stderr)")
    }

    @Test func anApprovedCustomerIsAuthorisedWithAPSPReference() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--adyen-flow", "advanced", "--customer", "approve"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(sequence(outcome) == [
            "state notStarted", "phase methods", "state creatingCustomerRequest", "state readyToAuthorize", "state redirecting",
            "state polling", "state approved", "phase authorising", "phase completed",
        ])
        let completed = try #require(outcome.lines.first { $0.hasPrefix("phase: completed") })
        #expect(completed.contains("result_code=Authorised"), "\(completed)")
        #expect(completed.range(of: #"psp_reference=[0-9A-Z]{16}"#, options: .regularExpression) != nil, "\(completed)")
    }

    @Test func theJSONSummaryCarriesThePSPReferenceAndResultCode() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let summary = try #require(try objects(outcome).last)
        #expect(summary["result_code"] as? String == "Authorised")
        #expect((summary["psp_reference"] as? String)?.count == 16)
        #expect(summary["final_phase"] as? String == "completed")
    }

    @Test(arguments: [
        ("7001", Int32(1), "Refused"), ("7002", Int32(2), "Error"), ("7003", Int32(1), "Cancelled"),
    ])
    func magicAmountsEndWithTheirResultCode(amount: String, status: Int32, resultCode: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--amount", amount, "--json"])
        #expect(outcome.status == status, "\(outcome.stdout)\(outcome.stderr)")
        let summary = try #require(try objects(outcome).last)
        #expect(summary["result_code"] as? String == resultCode)
        #expect(summary["final_phase"] as? String == "settlementFailed")
        #expect(outcome.stderr.contains("settlement failed: \(resultCode)"), "\(outcome.stderr)")
    }

    @Test(arguments: [("advanced", "phase authorising"), ("sessions", "phase sessionResult")])
    func receivedWaitsForTheAuthorisationWebhook(flow: String, before: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--adyen-flow", flow, "--amount", "7004"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(sequence(outcome).suffix(3) == [before, "phase awaitingWebhook", "phase completed"])
        #expect(outcome.lines.contains { $0.contains("result_code=Received") && $0.contains("webhook=\"AUTHORISATION success=true\"") })
    }

    @Test func receivedThenAFailedAuthorisationIsADecline() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--amount", "7005"])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("AUTHORISATION webhook: not authorised"), "\(outcome.stderr)")
    }

    @Test(arguments: [("advanced", "phase authorising"), ("sessions", "phase sessionResult")])
    func manualCaptureCapturesAfterAuthorised(flow: String, before: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--adyen-flow", flow, "--capture", "manual"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(sequence(outcome).suffix(3) == [before, "phase capturing", "phase completed"])
        #expect(outcome.lines.contains { $0.contains("capture_psp_reference=") })
    }

    @Test func aStoredMethodPaysWithoutTheCustomerUntilItIsDeleted() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let shopper = ["--sandbox-url", baseURL, "--shopper-reference", "shopper-e2e"]
        // The advanced flow prints the stored id (a session's token arrives by webhook instead).
        let stored = try await CheckoutBinary.run(["run", "--provider", "adyen", "--adyen-flow", "advanced", "--store", "--json"] + shopper)
        #expect(stored.status == 0, "\(stored.stdout)\(stored.stderr)")
        let id = try #require(try objects(stored).last?["stored_payment_method_id"] as? String)

        let repeatPurchase = try await CheckoutBinary.run(["run", "--provider", "adyen", "--stored-payment-method", id] + shopper)
        #expect(repeatPurchase.status == 0, "\(repeatPurchase.stdout)\(repeatPurchase.stderr)")
        #expect(sequence(repeatPurchase) == [
            "state notStarted", "phase session", "state approved", "phase sessionPayment", "phase sessionResult", "phase completed",
        ])
        let advancedRepeat = try await CheckoutBinary.run(["run", "--provider", "adyen", "--adyen-flow", "advanced", "--stored-payment-method", id] + shopper)
        #expect(sequence(advancedRepeat) == ["state notStarted", "phase methods", "state approved", "phase authorising", "phase completed"])

        let query = "shopperReference=shopper-e2e&merchantAccount=TerminalCheckoutECOM"
        let deleted = try await CheckoutBinary.send(
            "DELETE", baseURL + "/v71/storedPaymentMethods/\(id)?\(query)", headers: [(name: "X-API-Key", value: "AQE_test")])
        #expect(deleted.status == 204)
        let afterDelete = try await CheckoutBinary.run(["run", "--provider", "adyen", "--stored-payment-method", id] + shopper)
        #expect(afterDelete.status == 2)
        #expect(afterDelete.states.last == "integrationError")
        #expect(afterDelete.lines.contains { $0.contains("STORED_METHOD_UNKNOWN") }, "\(afterDelete.stdout)")
    }

    @Test func aLostPaymentsResponseIsRetriedWithTheSameKeyAndChargesOnce() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "adyen", "--adyen-flow", "advanced", "--sandbox-url", baseURL, "--fault", "POST /v71/payments reset",
            "--retry-base-ms", "5",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("POST /v71/payments attempt 1 failed"), "\(outcome.stderr)")
        let ledger = try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger")
        let payments = try #require((try JSONSerialization.jsonObject(with: ledger) as? [String: Any])?["adyen_payments"] as? [[String: Any]])
        #expect(payments.count == 1, "\(payments)")
    }

    @Test(arguments: [
        (["--adyen-api-key", "not-a-key"], "000"),
        (["--adyen-merchant-account", "UnknownMerchant"], "901"),
    ])
    func badCredentialsAreAnIntegrationError(flags: [String], code: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen"] + flags)
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.states.last == "integrationError")
        #expect(outcome.lines.contains { $0.contains("code=\(code)") }, "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("not-a-key") && !outcome.stderr.contains("not-a-key"))
    }

    @Test(arguments: [
        (["--capture", "later"], "--capture must be auto or manual"),
        (["--store", "--stored-payment-method", "ABC"], "do not go together"),
        (["--adyen-url", "https://checkout-test.adyen.com/v71"], "ADYEN_API_KEY"),
        (["--adyen-hmac-key", "xyz"], "--adyen-hmac-key must be hexadecimal"),
        (["--adyen-flow", "classic"], "--adyen-flow must be sessions or advanced"),
        (["--store-payment-method-mode", "sometimes"], "must be disabled, askForConsent or enabled"),
    ])
    func badOptionsSayWhatIsAllowed(flags: [String], message: String) async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen"] + flags)
        #expect(outcome.status == 64, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }
}

/// Webhooks the client cannot verify are shown as rejected and never decide a payment.
@Suite struct AdyenWebhookTrustTests {
    @Test func aWebhookWithAWrongSignatureIsShownRejectedAndNotActedOn() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { server.signal(SIGTERM) }
        // The sandbox signs with its test key; this client expects another. The run waits
        // out --timeout; 10 s leaves a starved CI machine time to see the webhook first.
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "adyen", "--amount", "7004", "--sandbox-url", baseURL, "--adyen-hmac-key", "00ff", "--timeout", "10",
        ])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.lines.contains { $0.hasPrefix("event: webhook AUTHORISATION") && $0.hasSuffix("✗ bad signature") }, "\(outcome.stdout)")
        #expect(!outcome.lines.contains { $0.hasPrefix("phase: completed") })
        #expect(outcome.stderr.contains("timeout: settlement did not finish within 10 s (last step awaitingWebhook)"), "\(outcome.stderr)")
    }

    @Test func aSandboxStartedWithTheClientsKeySignsWithIt() async throws {
        let outcome = try await CheckoutBinary.run(["run", "--provider", "adyen", "--amount", "7004", "--adyen-hmac-key", "00ff", "--json"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let events = outcome.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["event"] != nil }
        #expect(events.contains { $0["event"] as? String == "AUTHORISATION" && $0["signature_valid"] as? Bool == true }, "\(outcome.stdout)")
    }
}

/// `checkout listen` and `checkout sandbox --adyen-hmac-key`: webhooks with the user's own key.
@Suite struct AdyenWebhookKeyTests {
    private static let key = "00FF00FF00FF00FF"

    private func notification(signedWith hex: String) throws -> String { try AdyenTestNotification.json(signedWith: hex) }

    /// Waits for stdout to hold `text`, or gives up after `seconds`.
    private func eventually(_ child: ChildProcess, contains text: String, seconds: Double = 10) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if child.stdout.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func listenVerifiesEachNotificationAndAnswersAsAdyenExpects() async throws {
        let (listener, url) = try await CheckoutBinary.start(["listen", "--port", "0", "--adyen-hmac-key", Self.key])
        defer { listener.signal(SIGTERM) }
        let good = try await CheckoutBinary.send("POST", url, json: try notification(signedWith: Self.key))
        #expect(good.status == 200)
        #expect(String(decoding: good.body, as: UTF8.self) == "[accepted]")
        #expect(try await eventually(listener, contains: "AUTHORISATION ABCDEFGHIJKLMNOP success signature ✓"), "\(listener.stdout)")
        let forged = try await CheckoutBinary.send("POST", url, json: try notification(signedWith: "0102"))
        #expect(forged.status == 401, "Adyen retries what is not acknowledged")
        #expect(try await eventually(listener, contains: "✗ bad signature"), "\(listener.stdout)")
    }

    @Test func aSandboxStartedWithAKeySignsWithIt() async throws {
        let (server, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0", "--adyen-hmac-key", Self.key])
        defer { server.signal(SIGTERM) }
        let outcome = try await CheckoutBinary.run([
            "run", "--provider", "adyen", "--amount", "7004", "--sandbox-url", baseURL, "--adyen-hmac-key", Self.key,
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.lines.contains { $0.hasPrefix("event: webhook AUTHORISATION") && $0.hasSuffix("signature ✓") })
    }

    @Test(arguments: [["sandbox", "--port", "0", "--adyen-hmac-key", "xyz"], ["listen", "--port", "0", "--adyen-hmac-key", "abc"]])
    func aKeyThatIsNotHexIsRefused(arguments: [String]) async throws {
        let outcome = try await CheckoutBinary.run(arguments, timeout: 15)
        #expect(outcome.status == 64, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("--adyen-hmac-key must be hexadecimal digits"), "\(outcome.stderr)")
    }
}
