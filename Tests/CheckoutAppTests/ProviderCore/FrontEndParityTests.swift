@testable import CheckoutApp
import CheckoutModel
import Foundation
import Synchronization
import Testing
import TerminalUI

/// The screen and `checkout run` drive the same coordinator: one scenario makes the same
/// requests with the same bodies whichever front end runs it.
@Suite struct FrontEndParityTests {
    /// Method, path and body of every call, ids masked: the writes in order, then the distinct
    /// reads (how often polling reads, and whether the simulated customer's approval lands
    /// before or after the first read, depend on timing).
    private func requests(in path: String) throws -> [String] {
        let document = try Transcript.load(path)
        let masks: [(String, String)] = [
            (#"127\.0\.0\.1:\d+"#, "HOST"), (#"GRR_[a-z0-9]+"#, "GRR_*"), (#"GRG_[a-z0-9]+"#, "GRG_*"),
            (#""idempotency_key":"[^"]+""#, #""idempotency_key":"*""#),
            // Adyen's opaque session tokens (new with every answer).
            (#""sessionData":"[^"]+""#, #""sessionData":"*""#), (#""redirectResult":"[^"]+""#, #""redirectResult":"ID""#), (#"sessionResult=[^ ]+"#, "sessionResult=*"), (#"tc-[0-9a-f]{8}"#, "tc-*"), (#"t=\d+-[a-z0-9]+"#, "t=*"),
            (#"CST_[a-z0-9]+"#, "CST_*"), (#"TP_[0-9A-F]+"#, "TP_*"), (#"002\.[a-z0-9]+"#, "TOKEN"), (#"eyJ[A-Za-z0-9_.-]+"#, "JWT"),
            // Other providers' ids, keys and times: a UUID, a time, any long token with a digit in it.
            (#"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"#, "UUID"),
            (#"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?"#, "TIME"),
            (#"\b(?=[A-Za-z_:-]*\d)[A-Za-z0-9_:-]{16,}"#, "ID"),
            // A random id as a path segment may have no digit at all (Square's payment ids)…
            (#"(?<=/)[A-Za-z0-9]{24,}(?=[/ ?]|$)"#, "ID"),
            // …and so may one as a query value (Adyen's redirectData).
            (#"(?<==)[A-Za-z0-9]{16,}(?=[ &]|$)"#, "ID"),
        ]
        var lines: [String] = []
        for entry in document.log.entries {
            var line = "\(entry.request.method) \(entry.request.url) \(canonical(entry.request.postData?.text))"
            for (pattern, replacement) in masks {
                line = line.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
            }
            lines.append(line)
        }
        // Only the screen lists saved methods (its payment pane: `/paymentMethods` with no amount)
        // and writes its transcript after the session has stopped (the webhook registration's removal).
        lines.removeAll { line in
            let savedMethodsListing = line.contains("/paymentMethods ") && !line.contains(#""amount":"#)
            return savedMethodsListing || (line.hasPrefix("DELETE ") && line.contains("/sandbox/webhooks/"))
        }
        // The simulated customer's act lands between polls as timing has it, and polling by POST
        // repeats as often as timing has it: the acts go with the reads, repeats count once.
        let unordered = lines.filter { $0.hasPrefix("GET ") || $0.contains("/sandbox/customer-requests/") }
        var writes: [String] = []
        for line in lines where !unordered.contains(line) && line != writes.last { writes.append(line) }
        return writes + Set(unordered).sorted()
    }

    /// The `sdk_log` events a transcript kept, as `provider name k=v …` with session ids masked.
    private func sdkLogs(in path: String) throws -> [String] {
        let document = try Transcript.load(path)
        return (document.log.terminalCheckout?.events ?? []).compactMap { event -> String? in
            guard event.notice == "sdk_log", let log = event.sdkLog else { return nil }
            let line = ([log.provider, log.name] + log.parameters.keys.sorted().map { "\($0)=\(log.parameters[$0] ?? "")" }).joined(separator: " ")
            return line.replacingOccurrences(of: #"SBXSESSION[A-Za-z0-9]+"#, with: "SBXSESSION*", options: .regularExpression)
        }
    }

    /// A JSON body with sorted keys, so key order never reads as a difference.
    private func canonical(_ body: String?) -> String {
        guard let body, let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return body ?? "" }
        return String(decoding: data, as: UTF8.self)
    }

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)-\(name)").path
    }

    /// One checkout per provider through both front ends: the scenario's customer answers the
    /// prompts (Square's tip and reader, the wallet's sheet and confirmation) and approves, or
    /// declines; where nobody answers a prompt the screen's person presses p to authorize.
    static let cases: [(provider: String, customer: CustomerBehaviour, status: CheckoutApp.ExitStatus)] = [
        ("cashapp", CustomerBehaviour.approve, CheckoutApp.ExitStatus.approved), ("afterpay", .approve, .approved),
        ("adyen", .approve, .approved), ("antom", .approve, .approved), ("square", .approve, .approved), ("wallet", .approve, .approved),
        ("cashapp", .decline, .declined), ("square", .decline, .declined),
        // The provider that exists only in the tests: added with its own files and a registry line.
        ("testpay", .approve, .approved),
    ]

    @Test(arguments: FrontEndParityTests.cases)
    func bothFrontEndsMakeTheSameRequests(provider: String, customer: CustomerBehaviour, status: CheckoutApp.ExitStatus) async throws {
        try await checkBothFrontEnds(provider: provider, customer: customer, status: status)
    }

    /// Afterpay's signing retry (sandbox amounts 33.30: sign-payment fails once, the retry with a
    /// new checkout token signs; 33.31: it fails again and the checkout ends in apiError) makes
    /// the same calls from the screen and from `checkout run`.
    @Test(arguments: [(3330, CheckoutApp.ExitStatus.approved, true), (3331, .failed, false)])
    func bothFrontEndsRetryAfterpaySigningTheSameWay(cents: Int, status: CheckoutApp.ExitStatus, signs: Bool) async throws {
        try await checkBothFrontEnds(provider: "afterpay", customer: .approve, status: status, amount: Money(minorUnits: cents, currency: .usd), reachesReady: signs)
    }

    /// Adyen's flows as the scenario's `options:` choose them: the sessions flow (the default,
    /// above) asking for consent, with the action path (70.06), and the advanced flow.
    @Test(arguments: [
        ["flow": "sessions", "store-payment-method-mode": "askForConsent"], ["flow": "advanced"], ["flow": "sessions", "amount": "70.06"],
        ["flow": "advanced", "amount": "70.06"],
    ])
    func bothFrontEndsWalkAdyensFlowsAlike(options: [String: String]) async throws {
        var scenarioOptions = ["adyen-flow": options["flow"] ?? "sessions"]
        scenarioOptions["store-payment-method-mode"] = options["store-payment-method-mode"]
        let amount = try options["amount"].map { try Money(decimal: $0, currency: .usd) }
        try await checkBothFrontEnds(provider: "adyen", customer: .approve, status: .approved, options: scenarioOptions, amount: amount)
    }

    /// Cash App Pay's on-file payment beside the one-time payment (PayKit's onFilePayment), from
    /// a scenario's options: both front ends send the same two actions and end approved.
    @Test func anOnFilePaymentMakesTheSameRequestsOnBothFrontEnds() async throws {
        let requests = try await checkBothFrontEnds(
            provider: "cashapp", customer: .approve, status: .approved,
            options: ["on-file": "also", "account-reference-id": "customer-42", "redirect-url": "https://shop.example/return"])
        let create = try #require(requests.first { $0.hasPrefix("POST http://HOST/customer-request/v1/requests") })
        #expect(create.contains(#""type":"ONE_TIME_PAYMENT""#) && create.contains(#""type":"ON_FILE_PAYMENT""#), "\(create)")
        #expect(create.contains(#""account_reference_id":"customer-42""#) && create.contains(#""redirect_url":"https://shop.example/return""#), "\(create)")
    }

    /// Square's issue-28 paths from a scenario's options: the gift card's partial authorization
    /// and a card for the rest (the scripted customer presents the gift card, then a card), a tip
    /// added by UpdatePayment before completing, and another card after a decline with the same
    /// reference: the same calls from both front ends.
    @Test(arguments: [
        ["accept-partial-authorization": "true", "then": "complete"], ["card": "ok", "delay": "PT1M", "then": "tip:300,complete"],
        ["card": "declined,ok"],
    ])
    func bothFrontEndsWalkSquaresSplitTenderTipAndRetryAlike(options: [String: String]) async throws {
        let requests = try await checkBothFrontEnds(provider: "square", customer: .approve, status: .approved, options: options)
        let creates = requests.filter { $0.hasPrefix("POST http://HOST/v2/payments ") }
        if options["accept-partial-authorization"] != nil {
            #expect(creates.count == 2 && creates.allSatisfy { $0.contains(#""accept_partial_authorization":true"#) }, "\(requests)")
            // (The two completes read alike once their ids are masked: the listing keeps one.)
            #expect(requests.contains { $0.contains("/complete ") }, "\(requests)")
        } else if options["then"] != nil {
            #expect(requests.contains { $0.hasPrefix("PUT http://HOST/v2/payments/") && $0.contains(#""tip_money":{"amount":300"#) }, "\(requests)")
        } else {
            #expect(creates.count == 2 && Set(creates.map { $0.contains(#""reference_id":"tc-*""#) }) == [true], "\(requests)")
        }
    }

    /// The wallet's flat shipping methods and a contact-only store-pickup request, from a
    /// scenario's options: both front ends ask no rates service and charge the same token.
    @Test(arguments: [
        ["shipping-methods": "freeshipping:Free Shipping:Arrives in 6-8 weeks:0;expressshipping:Express Shipping:Arrives in 2-3 days:10.00",
         "shipping-method": "expressshipping"],
        ["require": "email,phone", "shipping-type": "storePickup", "required-billing-fields": "name,postal", "merchant-capabilities": "supports3DS,supportsCredit"],
    ])
    func bothFrontEndsWalkTheWalletsFlatAndContactOnlySheetsAlike(options: [String: String]) async throws {
        let requests = try await checkBothFrontEnds(provider: "wallet", customer: .approve, status: .approved, options: options)
        #expect(!requests.contains { $0.contains("/rates") }, "no rates call: \(requests)")
        let token = try #require(requests.first { $0.hasPrefix("POST http://HOST/wallet/tokens") })
        #expect(token.contains(#""merchantCapabilities":["supports3DS""#), "\(token)")
    }

    /// Square's merchant-drawn prompt (`--prompt custom`) with the reader changed by the scenario's
    /// options, and a delayed payment cancelled through the payment handle (by idempotency key):
    /// both front ends make the same calls.
    @Test(arguments: [
        ["prompt": "custom", "reader-steps": "disconnect,connect,low-battery"], ["prompt": "custom", "delay": "600", "then": "cancel"],
    ])
    func bothFrontEndsWalkSquaresCustomPromptAlike(options: [String: String]) async throws {
        let requests = try await checkBothFrontEnds(provider: "square", customer: .approve, status: .approved, options: options)
        if options["then"] == "cancel" {
            #expect(requests.contains { $0.hasPrefix("POST http://HOST/v2/payments/cancel ") }, "\(requests)")
        } else {
            #expect(requests.contains { $0.contains(#"cnon:reader-contactless-ok"#) }, "low battery: contactless only: \(requests)")
        }
    }

    /// Runs `provider`'s checkout through both front ends and compares their requests; returns them.
    @discardableResult
    private func checkBothFrontEnds(
        provider: String, customer: CustomerBehaviour, status: CheckoutApp.ExitStatus, options: [String: String] = [:], amount: Money? = nil,
        reachesReady: Bool = true
    ) async throws -> [String] {
        var scenario = Scenario(name: "parity")
        scenario.provider = provider
        scenario.customer = customer
        scenario.amount = amount
        scenario.metadata = ["ticket": "SUP-1"]
        scenario.options = options
        let registry = provider == "testpay" ? ProviderRegistry.withTestPay : .builtIn

        let headlessPath = temporaryPath("run.har")
        let headless = HeadlessOptions(session: SessionOptions(registry: registry), scenario: scenario, timeoutSeconds: 30, recordPath: headlessPath)
        let ran = await HeadlessCheckout(options: headless, write: { _ in }, writeError: { _ in }).run()
        #expect(ran == status)

        let screenPath = temporaryPath("screen.har")
        let terminal = InMemoryTerminal(width: 100, height: 30)
        var options = TerminalCheckoutOptions(session: SessionOptions(registry: registry), colors: false, scenario: scenario, recordPath: screenPath)
        options.terminal = { terminal }
        options.quietEnd = true
        let driven = Mutex<String?>(nil)
        let thread = Thread {
            // Pay; authorize a ready request unless a prompt is up (the scenario's customer
            // answers it); quit once the checkout ended.
            let ended = "r new checkout"
            guard terminal.waitForScreen(containing: "notStarted", timeout: .seconds(20)) != nil else {
                driven.withLock { $0 = "never saw notStarted: \(terminal.lastScreen?.text ?? "no frame")" }
                terminal.send(keys: [.control("c")])
                return
            }
            // A method that creates its request as the checkout loads is ready without a first p.
            if registry.descriptor(provider)?.method.createsOnLoad != true { terminal.send(keys: [.character("p")]) }
            let promptsFirst = ["square", "wallet"].contains(provider)
            if !promptsFirst && reachesReady {
                guard terminal.waitForScreen(containing: "readyToAuthorize", timeout: .seconds(20)) != nil else {
                    driven.withLock { $0 = "never saw readyToAuthorize: \(terminal.lastScreen?.text ?? "no frame")" }
                    terminal.send(keys: [.control("c")])
                    return
                }
                terminal.send(keys: [.character("p")])
            }
            guard terminal.waitForScreen(containing: ended, timeout: .seconds(30)) != nil else {
                driven.withLock { $0 = "never ended: \(terminal.lastScreen?.text ?? "no frame")" }
                terminal.send(keys: [.control("c")])
                return
            }
            terminal.send(keys: [.character("q")])
        }
        thread.start()
        _ = await TerminalCheckout.run(options: options, writeError: { _ in })
        #expect(driven.withLock { $0 } == nil, "\(driven.withLock { $0 } ?? "")")

        let fromRun = try requests(in: headlessPath)
        let fromScreen = try requests(in: screenPath)
        #expect(fromRun == fromScreen)
        #expect(!fromRun.isEmpty)
        // The SDK's log lines (`sdk_log`): the same lines, in the same order, from both front ends.
        let logsFromRun = try sdkLogs(in: headlessPath)
        #expect(logsFromRun == (try sdkLogs(in: screenPath)))
        if provider == "antom" {
            #expect(logsFromRun.first?.hasPrefix("antom initConfiguration locale=") == true, "\(logsFromRun)")
            #expect(logsFromRun.contains("antom onEventCallback eventCode=SDK_END_OF_LOADING"), "\(logsFromRun)")
        }
        if provider == "afterpay", amount != nil {
            // Each front end asked for a second checkout token after the first signing failed.
            #expect(fromRun.filter { $0.hasPrefix("POST http://HOST/v2/checkouts ") }.count == 2, "\(fromRun)")
            #expect(fromRun.filter { $0.hasPrefix("POST http://HOST/v2/payments/sign-payment ") }.count == 2, "\(fromRun)")
        }
        if (provider == "cashapp" || provider == "afterpay") && reachesReady {
            let create = try #require(fromRun.first { $0.hasPrefix("POST http://HOST/customer-request/v1/requests") })
            #expect(create.contains(#""reference_id":"tc-*""#) && create.contains(#""cart_items":"3""#) && create.contains(#""ticket":"SUP-1""#), "\(create)")
        }
        return fromRun
    }
}
