import Foundation
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// `checkout run --provider antom`: the real binary against its embedded sandbox — each
/// customer answer, display mode, locale, SDK error, notification check and session expiry.
@Suite struct AntomRunTests {
    private func objects(_ outcome: CheckoutBinary.Outcome) -> [[String: Any]] {
        outcome.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The component's and Antom's events; the SDK's log lines (`sdk_log`) are checked on their own.
    private func events(_ outcome: CheckoutBinary.Outcome) -> [[String: Any]] {
        objects(outcome).filter { $0["event"] != nil && $0["event"] as? String != "sdk_log" }
    }

    private func sdkLogs(_ outcome: CheckoutBinary.Outcome) -> [[String: Any]] {
        objects(outcome).filter { $0["event"] as? String == "sdk_log" }
    }

    private func eventNames(_ outcome: CheckoutBinary.Outcome) -> [String] {
        events(outcome).compactMap { $0["event"] as? String }
    }

    private func antom(_ arguments: [String], timeout: Double = 60) async throws -> CheckoutBinary.Outcome {
        try await CheckoutBinary.run(["run", "--provider", "antom", "--json"] + arguments, timeout: timeout)
    }

    @Test func aPaidBankPaymentWalksTheStatesWithTheComponentsEvents() async throws {
        let outcome = try await antom(["--customer", "pay"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let states = objects(outcome).compactMap { $0["state"] as? String }
        #expect(states == ["notStarted", "creatingCustomerRequest", "readyToAuthorize", "redirecting", "polling", "approved"], "\(outcome.stdout)")
        let names = eventNames(outcome)
        #expect(names.starts(with: ["SDK_START_OF_LOADING", "SDK_END_OF_LOADING"]), "\(names)")
        let result = try #require(events(outcome).first { $0["event"] as? String == "PAYMENT_RESULT" }, "\(outcome.stdout)")
        #expect(result["resultStatus"] as? String == "S" && result["verified"] as? Bool == true)
        let summary = try #require(objects(outcome).last { $0["summary"] as? Bool == true })
        #expect(summary["final_state"] as? String == "approved")
    }

    /// The component's logger (the seed's `logWithName`): its lines are `{"event": "sdk_log",
    /// "provider": "antom", "name": …, "parameters": {…}}`, at the seed's steps, in order, before
    /// the events they log; the session data itself is never logged.
    @Test func theComponentsLogLinesAreSDKLogEvents() async throws {
        let outcome = try await antom(["--customer", "pay", "--locale", "th_TH"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let logs = sdkLogs(outcome)
        let names = logs.compactMap { $0["name"] as? String }
        #expect(names.starts(with: ["initConfiguration", "createComponent", "onEventCallback", "onEventCallback"]), "\(names)")
        #expect(logs.allSatisfy { $0["provider"] as? String == "antom" && $0["parameters"] is [String: String] }, "\(logs)")
        let configuration = try #require(logs.first?["parameters"] as? [String: String])
        #expect(configuration == ["locale": "th_TH", "sandbox": "true", "showLoading": "true"], "\(configuration)")
        let created = try #require(logs.dropFirst().first?["parameters"] as? [String: String])
        #expect(created["environment"] == "sandbox" && created["paymentSessionId"]?.hasPrefix("SBXSESSION") == true, "\(created)")
        let codes = logs.filter { $0["name"] as? String == "onEventCallback" }.compactMap { ($0["parameters"] as? [String: String])?["eventCode"] }
        #expect(codes.starts(with: ["SDK_START_OF_LOADING", "SDK_END_OF_LOADING"]), "\(codes)")
        #expect(!outcome.stdout.contains("paymentSessionData"), "the session data is not logged")
        // Plain text: `event: sdk_log NAME k=v …`.
        let text = try await CheckoutBinary.run(["run", "--provider", "antom", "--customer", "pay"], timeout: 60)
        #expect(text.stdout.contains("event: sdk_log initConfiguration locale=en_US sandbox=true showLoading=true"), "\(text.stdout)")
    }

    @Test(arguments: [("fail", "USER_BALANCE_NOT_ENOUGH"), ("abandon", "ORDER_IS_CLOSED")])
    func aFailedOrAbandonedPaymentIsDeclined(customer: String, reason: String) async throws {
        let outcome = try await antom(["--customer", customer])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"declined\"") && outcome.stdout.contains(reason), "\(outcome.stdout)")
    }

    @Test func eachDisplayModeOffersItsBanks() async throws {
        let single = try await antom(["--mode", "single-bank:BBL", "--customer", "pay"])
        #expect(single.status == 0, "\(single.stdout)\(single.stderr)")
        #expect(events(single).contains { $0["event"] as? String == "SDK_END_OF_LOADING" && $0["banks"] as? String == "BBL" }, "\(single.stdout)")
        #expect(single.stdout.contains("/banks/BBL"), "one bank: the link is its page")

        let online = try await CheckoutBinary.run(
            ["run", "--provider", "antom", "--json", "--currency", "IDR", "--mode", "bank-type:ONLINE_BANKING", "--client-kind", "web", "--customer", "pay"])
        #expect(online.status == 0, "\(online.stdout)\(online.stderr)")
        let banks = try #require(events(online).first { $0["event"] as? String == "SDK_END_OF_LOADING" }?["banks"] as? String)
        #expect(Set(banks.split(separator: ",")).isSubset(of: ["BCA", "BNI"]) && !banks.isEmpty, "\(banks)")
        #expect(online.stdout.contains("\"currency\":\"IDR\""), "\(online.stdout)")

        let country = try await antom(["--mode", "bank-country:TH", "--customer", "pay"])
        let thai = try #require(events(country).first { $0["event"] as? String == "SDK_END_OF_LOADING" }?["banks"] as? String)
        #expect(["SCB", "KBANK", "BBL", "KTB"].allSatisfy { thai.split(separator: ",").contains(Substring($0)) }, "\(thai)")
    }

    @Test func mobileBankingAppsAreNeverOfferedToWebClients() async throws {
        let outcome = try await antom(["--mode", "bank-type:MOBILE_BANKING_APP", "--client-kind", "web"])
        #expect(outcome.status == 64, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains("never offered to web clients"), "\(outcome.stderr)")
        let app = try await antom(["--mode", "bank-type:MOBILE_BANKING_APP", "--client-kind", "app", "--customer", "pay"])
        #expect(app.status == 0, "\(app.stdout)\(app.stderr)")
    }

    @Test(arguments: ["en_US", "in_ID", "th_TH"])
    func eachLocaleReachesTheBankPage(locale: String) async throws {
        let outcome = try await antom(["--locale", locale, "--customer", "pay"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("locale=\(locale)"), "\(outcome.stdout)")
        #expect(!eventNames(outcome).contains("LOCALE_FALLBACK"))
    }

    @Test func anotherLocaleFallsBackToEnglishAndSaysSoOnce() async throws {
        let outcome = try await antom(["--locale", "fr_FR", "--customer", "pay"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(eventNames(outcome).filter { $0 == "LOCALE_FALLBACK" }.count == 1, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("locale=en_US"), "\(outcome.stdout)")
    }

    @Test(arguments: [
        (8101, "SDK_CREATEPAYMENT_PARAMETER_ERROR", "integrationError"), (8102, "SDK_CALL_URL_ERROR", "apiError"),
        (8103, "SDK_INTERNAL_ERROR", "unexpectedError"), (8104, "SDK_INTEGRATION_ERROR", "integrationError"),
    ])
    func eachSDKErrorIsReportedAndLeadsToItsState(amount: Int, code: String, state: String) async throws {
        let outcome = try await antom(["--amount", String(amount), "--customer", "pay"])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(eventNames(outcome).starts(with: ["SDK_START_OF_LOADING", "SDK_END_OF_LOADING", code]), "\(outcome.stdout)")
        #expect(objects(outcome).compactMap { $0["state"] as? String }.last == state, "\(outcome.stdout)")
    }

    @Test func aNotificationWithABadSignatureIsShownAndIgnored() async throws {
        let outcome = try await antom(["--amount", "8002", "--customer", "pay"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let rejected = events(outcome).filter { $0["verified"] as? Bool == false }
        #expect(!rejected.isEmpty, "\(outcome.stdout)")
        #expect(eventNames(outcome).contains("NO_NOTIFICATION"), "decided by inquiry alone, and said so")
    }

    @Test func aNotificationThatDisagreesWithTheInquiryStopsTheCheckout() async throws {
        let outcome = try await antom(["--amount", "8003", "--customer", "pay"])
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("NOTIFY_INQUIRY_MISMATCH"), "\(outcome.stdout)")
    }

    @Test func aPendingBankPaymentWaitsForAntomsConfirmation() async throws {
        let outcome = try await antom(["--amount", "8001", "--customer", "pay"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let names = eventNames(outcome)
        #expect(names.contains("PAYMENT_PENDING") && names.contains("PAYMENT_RESULT"), "\(names)")
    }

    @Test func aSessionAboutToExpireUnpaidIsRecreatedUntilTheCheckoutGivesUp() async throws {
        // Sessions live 12 s: with 10 s left the checkout makes a new one, again and again, until --timeout.
        let outcome = try await antom(["--request-lifetime", "12", "--customer", "none", "--timeout", "7"], timeout: 60)
        #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
        let states = objects(outcome).compactMap { $0["state"] as? String }
        #expect(states.contains("refreshing"), "\(outcome.stdout)")
        #expect(eventNames(outcome).contains("onDestroy"), "the previous component is destroyed first")
        let requests = Set(objects(outcome).compactMap { $0["request_id"] as? String })
        #expect(requests.count >= 2, "a new paymentRequestId per session: \(requests)")
    }

    /// Keys as Antom's portal gives them, in files: PEM here. Pointed at a URL as at the real
    /// Antom, the checkout signs with the file's key, verifies with the other, and links the
    /// hosted cashier (real session data is opaque to it).
    @Test func theMerchantsOwnKeysAreReadFromFilesAndSignEveryCall() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("antom-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func pem(_ label: String, _ base64: String) -> String {
            let lines = stride(from: 0, to: base64.count, by: 64).map { start in
                String(base64.dropFirst(start).prefix(64))
            }
            return (["-----BEGIN \(label)-----"] + lines + ["-----END \(label)-----", ""]).joined(separator: "\n")
        }
        let privateFile = folder.appendingPathComponent("merchant.pem").path
        let publicFile = folder.appendingPathComponent("antom.pub").path
        try pem("PRIVATE KEY", AntomSandboxCredentials.clientPrivateKey).write(toFile: privateFile, atomically: true, encoding: .utf8)
        try AntomSandboxCredentials.sandboxPublicKey.write(toFile: publicFile, atomically: true, encoding: .utf8)
        try await SandboxServer.withRunning(SandboxSettings()) { sandbox in
            // Nobody pays at a real cashier, so the run polls until --timeout; 20 s lets a
            // starved CI machine reach polling first.
            let outcome = try await antom([
                "--antom-url", sandbox.baseURL, "--antom-client-id", AntomSandboxCredentials.clientID,
                "--antom-private-key-file", privateFile, "--antom-public-key-file", publicFile, "--timeout", "20",
            ])
            #expect(outcome.status == 2, "\(outcome.stdout)\(outcome.stderr)")
            #expect(objects(outcome).compactMap { $0["state"] as? String }.contains("polling"), "signed and verified: \(outcome.stdout)\(outcome.stderr)")
            #expect(eventNames(outcome).contains("HOSTED_CASHIER"), "\(outcome.stdout)")
            #expect(outcome.stdout.contains("/sandbox/antom/cashier/") && outcome.stdout.contains("/page"), "\(outcome.stdout)")
            #expect(!outcome.stdout.contains(AntomSandboxCredentials.clientPrivateKey.dropFirst(100).prefix(40)) && !outcome.stderr.contains(AntomSandboxCredentials.clientPrivateKey.dropFirst(100).prefix(40)))

            let missing = try await antom([
                "--antom-url", sandbox.baseURL, "--antom-client-id", "X1", "--antom-private-key-file", folder.appendingPathComponent("nope.pem").path,
                "--antom-public-key-file", publicFile,
            ])
            #expect(missing.status == 64 && missing.stderr.contains("--antom-private-key-file: cannot read"), "\(missing.stderr)")
            let garbage = folder.appendingPathComponent("garbage.pem").path
            try "not a key".write(toFile: garbage, atomically: true, encoding: .utf8)
            let unreadable = try await antom([
                "--antom-url", sandbox.baseURL, "--antom-client-id", "X1", "--antom-private-key-file", garbage, "--antom-public-key-file", publicFile,
            ])
            #expect(unreadable.status == 64 && unreadable.stderr.contains("--antom-private-key-file"), "\(unreadable.stderr)")
        }
    }

    @Test func badOptionsNameTheFieldAndTheAllowedValues() async throws {
        for (arguments, words) in [
            (["--mode", "bank-country:SG"], "bank-country:TH|ID"), (["--client-kind", "tv"], "app or web"),
            (["--session-expiry", "5"], "60 to 3600"), (["--settlement-currency", "EUR"], "USD, THB, IDR"),
            (["--antom-url", "https://open-sea-global.alipay.com"], "--antom-client-id"),
        ] {
            let outcome = try await antom(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(words), "\(arguments): \(outcome.stderr)")
        }
    }
}
