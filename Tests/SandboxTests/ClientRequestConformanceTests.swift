import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// Our client and the sandbox's webhooks against the providers' published documents
/// (Tests/Conformance/specs): `checkout run` records every flow the tests exercise (`--record`),
/// Tests/Conformance/validate_client_requests.py validates each recorded request against its
/// operation, and validate_webhooks.py each webhook the sandbox sent against Adyen's
/// Webhooks-v1 / TokenizationNotification-v1. One sandbox serves the runs (but Square's delay
/// expiring, on a fast-clock sandbox, and the offline flow, which reaches none), so its webhooks
/// reach one receiver; the runs go in parallel. Requests only the screen or the offline queue
/// send are made in-process through the same client code. A request or webhook that does not
/// validate fails the test with its operation (event) and field path.
@Suite struct ClientRequestConformanceTests {
    /// A `checkout run` flow: its name (the transcript's), arguments and expected exit status.
    struct Flow: Sendable {
        let name: String
        let arguments: [String]
        let exit: Int32
        var environment: [String: String] = [:]
        init(_ name: String, _ arguments: [String], exit: Int32 = 0, environment: [String: String] = [:]) {
            self.name = name
            self.arguments = arguments
            self.exit = exit
            self.environment = environment
        }
    }

    /// Every provider and the variants the end-to-end tests run. Faults are per run (the
    /// `TerminalCheckout-Run` header), so they do not touch the other runs on the shared sandbox.
    static let flows: [Flow] = [
        Flow("cashapp-approve", ["--provider", "cashapp"]),
        Flow("cashapp-decline", ["--provider", "cashapp", "--customer", "decline"], exit: 1),
        // PayKit's onFilePayment beside the one-time payment, and alone; the redirect URL given.
        Flow("cashapp-on-file-also", [
            "--provider", "cashapp", "--on-file", "also", "--account-reference-id", "customer-conformance", "--redirect-url", "https://shop.example/return",
        ]),
        Flow("cashapp-on-file-only", ["--provider", "cashapp", "--on-file", "only", "--json"]),
        Flow("afterpay-approve", ["--provider", "afterpay"]),
        Flow("afterpay-validation-invalid", ["--provider", "afterpay", "--amount", "4440"], exit: 1),
        // sign-payment fails once: a second Create Checkout, then Get Configuration was read once.
        Flow("afterpay-sign-retry", ["--provider", "afterpay", "--amount", "3330"]),
        Flow("adyen-approve", ["--provider", "adyen", "--shopper-reference", "shopper-conformance", "--json"]),
        Flow("adyen-manual-capture", ["--provider", "adyen", "--capture", "manual", "--json"]),
        Flow("adyen-refused", ["--provider", "adyen", "--amount", "7001"], exit: 1),
        Flow("adyen-error", ["--provider", "adyen", "--amount", "7002"], exit: 2),
        Flow("adyen-received-authorised", ["--provider", "adyen", "--amount", "7004"]),
        Flow("adyen-received-refused", ["--provider", "adyen", "--amount", "7005"], exit: 1),
        Flow("square-tap-tip-fee-note", [
            "--provider", "square", "--card", "ok", "--entry", "tap", "--tip", "250", "--app-fee", "40", "--note", "conformance",
            "--order-id", "ORDER-conformance",
        ]),
        Flow("square-insert", ["--provider", "square", "--card", "ok", "--entry", "insert", "--tip", "0", "--receipt"]),
        Flow("square-swipe", ["--provider", "square", "--card", "ok", "--entry", "swipe", "--tip", "0"]),
        Flow("square-keyed-cvv", ["--provider", "square", "--card", "cvv", "--entry", "keyed", "--tip", "0"], exit: 1),
        Flow("square-decline", ["--provider", "square", "--customer", "decline"], exit: 1),
        Flow("square-delay-complete", ["--provider", "square", "--card", "ok", "--tip", "0", "--delay", "PT1M", "--then", "complete"]),
        Flow("square-delay-cancel", ["--provider", "square", "--card", "ok", "--tip", "0", "--delay", "PT1M", "--then", "cancel"]),
        // UpdatePayment: a tip added once APPROVED, then completed.
        Flow("square-tip-after-authorization", ["--provider", "square", "--card", "ok", "--tip", "0", "--delay", "PT1M", "--then", "tip:300,complete"]),
        // accept_partial_authorization: the gift card approves part, the card the rest (cancelled: both voided).
        Flow("square-split-tender", ["--provider", "square", "--card", "gift,ok", "--tip", "0", "--accept-partial-authorization", "--then", "complete"]),
        Flow("square-split-tender-cancel", ["--provider", "square", "--card", "gift,ok", "--tip", "0", "--accept-partial-authorization", "--then", "cancel"]),
        // Another card after a decline: the same reference_id, a new idempotency key.
        Flow("square-decline-another-card", ["--provider", "square", "--card", "declined,ok", "--tip", "0"]),
        Flow("square-lost-answer-adopted", ["--provider", "square", "--card", "ok", "--tip", "0", "--fault", "POST /v2/payments reset"]),
        Flow("square-never-arrived-sent-again", ["--provider", "square", "--card", "ok", "--tip", "0", "--fault", "POST /v2/payments drop"]),
        Flow(
            "square-silent-cancelled-by-key", ["--provider", "square", "--card", "ok", "--tip", "0", "--fault", "POST /v2/payments drop*9"],
            exit: 2),
        Flow("wallet-adyen", ["--provider", "wallet"]),
        Flow("wallet-square", ["--provider", "wallet", "--wallet-processor", "square"]),
        Flow("wallet-refused-card", ["--provider", "wallet", "--card", "0002"], exit: 1),
        Flow("antom-pay", ["--provider", "antom"]),
        Flow("adyen-store-a", ["--provider", "adyen", "--adyen-flow", "advanced", "--store", "--shopper-reference", "shopper-conformance-a", "--json"]),
        Flow("adyen-store-b", ["--provider", "adyen", "--adyen-flow", "advanced", "--store", "--shopper-reference", "shopper-conformance-b", "--json"]),
        // The advanced flow (the flows above run the default, sessions): /paymentMethods, /payments, /payments/details.
        Flow("adyen-advanced-approve", ["--provider", "adyen", "--adyen-flow", "advanced", "--json"]),
        Flow("adyen-advanced-refused", ["--provider", "adyen", "--adyen-flow", "advanced", "--amount", "7001"], exit: 1),
        Flow("adyen-advanced-received", ["--provider", "adyen", "--adyen-flow", "advanced", "--amount", "7004"]),
        Flow("adyen-advanced-action-details", ["--provider", "adyen", "--adyen-flow", "advanced", "--amount", "7006"]),
        // Sessions: the action through the session's paymentDetails, and each storePaymentMethodMode.
        Flow("adyen-sessions-action-details", ["--provider", "adyen", "--amount", "7006"]),
        Flow("adyen-sessions-ask-consent", [
            "--provider", "adyen", "--store-payment-method-mode", "askForConsent", "--store", "--shopper-reference", "shopper-conformance-c",
        ]),
        Flow("adyen-sessions-enabled", ["--provider", "adyen", "--store-payment-method-mode", "enabled", "--shopper-reference", "shopper-conformance-d"]),
    ]

    /// The notifications the flows below make the sandbox send (AdyenNotifier's whole list).
    static let expectedEvents = [
        "AUTHORISATION:success", "AUTHORISATION:failure", "CAPTURE:success", "CANCELLATION:success", "CANCELLATION:failure",
        "REFUND:success", "REFUND:failure", AdyenTokenNotification.created, AdyenTokenNotification.disabled,
    ]

    @Test func theValidatorsRejectBrokenBodiesWithTheirFieldPaths() async throws {
        for script in ["validate_client_requests.py", "validate_webhooks.py"] {
            guard let outcome = try await Self.python(script, ["--self-test"]) else { return }
            #expect(outcome.status == 0 && outcome.stdout.contains("self-test ok"), "\(script) --self-test:\n\(outcome.stdout)\(outcome.stderr)")
            #expect(outcome.stdout.contains("rejected as it should be"), "\(outcome.stdout)")
        }
    }

    @Test func everyRequestTheClientSendsAndEveryWebhookTheSandboxSendsMatchTheDocuments() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-requests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var settings = SandboxSettings()
        settings.adyen.asyncResultDelay = 0.05
        settings.webhookRetryDelay = 0.05
        try await SandboxServer.withRunning(settings) { running in
            let sandbox = AdyenTestSandbox(sandbox: running)
            let receiver = try AdyenWebhookReceiver()
            defer { receiver.close() }
            try await sandbox.registerReceiver(receiver)

            // Square's delay action passing: a sandbox of its own whose clock runs 600 times
            // faster, so the one-minute delay passes at once (the others need real time).
            let expire = Flow("square-delay-expire", ["--provider", "square", "--card", "ok", "--tip", "0", "--delay", "PT1M", "--then", "expire"])
            async let expired = Self.withFastSandbox { try await Self.runAll([expire], against: $0, recordingIn: directory) }
            // Square unreachable: the card is queued on this machine (uploaded below).
            let data = directory.appendingPathComponent("offline-data")
            let offline = Flow(
                "square-offline-queued", [
                    "--provider", "square", "--card", "ok", "--tip", "75", "--offline-capable", "--square-url", "http://127.0.0.1:9",
                    "--square-access-token", "EAAA-conformance-token",
                ], environment: ["TERMINALCHECKOUT_DATA_DIR": data.path])
            async let queued = Self.runAll([offline], against: nil, recordingIn: directory)

            let outcomes = try await Self.runAll(Self.flows, against: sandbox.baseURL, recordingIn: directory)
            for flow in Self.flows {
                let outcome = try #require(outcomes[flow.name])
                #expect(outcome.status == flow.exit, "\(flow.name) exited \(outcome.status), not \(flow.exit):\n\(outcome.stdout)\(outcome.stderr)")
            }
            let expiredOutcome = try await expired[expire.name]
            #expect(expiredOutcome?.status == 0, "\(expiredOutcome.map { $0.stdout + $0.stderr } ?? "")")
            let queuedOutcome = try await queued[offline.name]
            #expect(queuedOutcome?.stdout.contains("taken offline") == true, "\(queuedOutcome.map { $0.stdout + $0.stderr } ?? "")")

            // One-tap repeat purchase with shopper A's stored method; the screen's calls for B.
            let storedA = try Self.summary(outcomes["adyen-store-a"])["stored_payment_method_id"] as? String ?? ""
            let storedB = try Self.summary(outcomes["adyen-store-b"])["stored_payment_method_id"] as? String ?? ""
            #expect(!storedA.isEmpty && !storedB.isEmpty, "the store flows printed no stored_payment_method_id")
            let repeatFlow = Flow("adyen-stored-method", ["--provider", "adyen", "--stored-payment-method", storedA, "--shopper-reference", "shopper-conformance-a"])
            let repeated = try await Self.runAll([repeatFlow], against: sandbox.baseURL, recordingIn: directory)
            #expect(repeated[repeatFlow.name]?.status == 0, "\(repeated[repeatFlow.name].map { $0.stdout + $0.stderr } ?? "")")
            try await Self.recordInProcessCalls(
                sandbox: sandbox, storedMethod: storedB, offlineQueue: data.appendingPathComponent("square-offline.sqlite").path,
                into: directory.appendingPathComponent("screen-and-upload-calls.har"))

            // Modifications our client never sends (cancel after capture, refunds) and the shopper
            // disabling their stored method in Cash App: the remaining notifications.
            let captured = try Self.summary(outcomes["adyen-manual-capture"])["psp_reference"] as? String ?? ""
            let authorised = try Self.summary(outcomes["adyen-approve"])["psp_reference"] as? String ?? ""
            let account = AdyenOptions.configuration(ProviderOptionValues(), sandboxURL: sandbox.baseURL).merchantAccount
            let merchant: [String: Any] = ["merchantAccount": account]
            let modifications: [(String, [String: Any])] = [
                ("/v71/payments/\(authorised)/cancels", merchant),
                ("/v71/payments/\(captured)/cancels", merchant),
                ("/v71/payments/\(captured)/refunds", merchant.merging(["amount": ["currency": "USD", "value": 100]]) { $1 }),
                ("/v71/payments/\(captured)/refunds", merchant.merging(["amount": ["currency": "USD", "value": 999_999]]) { $1 }),
            ]
            for (path, body) in modifications {
                let answer = try await sandbox.adyen("POST", path, body)
                #expect(answer.status == 201, "\(path): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            }
            let disabled = try await sandbox.control("POST", "/sandbox/adyen/stored-payment-methods/\(storedA)/disable", [String: String]())
            #expect(disabled.status == 200, "disable: \(disabled.status)")

            // Every delivery finished (the runs' own receivers are gone; theirs fail fast).
            let deadline = ContinuousClock.now + .seconds(20)
            while running.webhooks.pending > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let deliveries = receiver.received
            let lines = deliveries.map { delivery in
                let object: [String: Any] = ["body": String(decoding: delivery.body, as: UTF8.self), "headers": delivery.headers]
                return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            }
            let webhooks = directory.appendingPathComponent("webhooks.jsonl")
            try (lines.joined(separator: "\n") + "\n").write(to: webhooks, atomically: true, encoding: .utf8)

            if let requests = try await Self.python("validate_client_requests.py", [directory.path]) {
                #expect(requests.status == 0 && requests.stdout.contains("client requests ok"), "\(requests.stdout)\(requests.stderr)")
                print(requests.stdout.split(separator: "\n").last { $0.hasPrefix("client requests") } ?? "")
            }
            if let validated = try await Self.python("validate_webhooks.py", ["--expect", Self.expectedEvents.joined(separator: ","), webhooks.path]) {
                #expect(validated.status == 0 && validated.stdout.contains("webhooks ok"), "\(validated.stdout)\(validated.stderr)")
                print(validated.stdout.split(separator: "\n").last { $0.hasPrefix("webhooks") } ?? "")
            }
        }
    }

    // MARK: - Helpers

    /// Runs `flows` against `baseURL` (nil: the flow names its own hosts), four at a time, each
    /// recording `NAME.har`.
    static func runAll(_ flows: [Flow], against baseURL: String?, recordingIn directory: URL) async throws -> [String: CheckoutBinary.Outcome] {
        try await withThrowingTaskGroup(of: (String, CheckoutBinary.Outcome).self) { group in
            var outcomes: [String: CheckoutBinary.Outcome] = [:]
            var pending = flows[...]
            func start(_ flow: Flow) {
                let sandbox = baseURL.map { ["--sandbox-url", $0] } ?? []
                let arguments = ["run"] + flow.arguments + sandbox + [
                    "--retry-base-ms", "5", "--record", directory.appendingPathComponent("\(flow.name).har").path,
                ]
                group.addTask { (flow.name, try await CheckoutBinary.run(arguments, environment: flow.environment, timeout: 60)) }
            }
            for _ in 0..<4 { if let flow = pending.popFirst() { start(flow) } }
            while let (name, outcome) = try await group.next() {
                outcomes[name] = outcome
                if let flow = pending.popFirst() { start(flow) }
            }
            return outcomes
        }
    }

    /// A second sandbox whose clock runs 600 times faster, for as long as `body` runs.
    static func withFastSandbox<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        var settings = SandboxSettings()
        settings.timeScale = 600
        return try await SandboxServer.withRunning(settings) { try await body($0.baseURL) }
    }

    /// The `--json` summary line of a run.
    static func summary(_ outcome: CheckoutBinary.Outcome?) throws -> [String: Any] {
        let line = outcome?.lines.last { $0.contains(#""summary":true"#) || $0.contains(#""summary": true"#) }
        guard let data = line?.data(using: .utf8), let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            Issue.record("no JSON summary in:\n\(outcome?.stdout ?? "")\(outcome?.stderr ?? "")")
            return [:]
        }
        return object
    }

    /// Calls `checkout run` never makes, sent through the same code that makes them and written
    /// as a transcript's entries, redacted the same way: the screen's (the payment pane listing
    /// stored methods and `d` deleting one, a cart changed before authorizing) and the offline
    /// queue's upload (`checkout offline --upload` and the session's own upload pass).
    static func recordInProcessCalls(sandbox: AdyenTestSandbox, storedMethod: String, offlineQueue: String, into file: URL) async throws {
        let log = ExchangeLog()
        let adyenConfiguration = AdyenOptions.configuration(ProviderOptionValues(["shopper-reference": "shopper-conformance-b"]), sandboxURL: sandbox.baseURL)
        let cashAppConfiguration = CashAppOptions.configuration(ProviderOptionValues(), sandboxURL: sandbox.baseURL)
        let squareConfiguration = SquareOptions.configuration(ProviderOptionValues(), sandboxURL: sandbox.baseURL)
        let secrets = [adyenConfiguration.apiKey, cashAppConfiguration.clientID, squareConfiguration.accessToken]
        let http = ProviderHTTPClient(log: log, redactor: Redactor(secrets: secrets), timeout: .seconds(30), retryPolicy: .never)
        let adyen = AdyenClient(configuration: adyenConfiguration, http: http)
        // As AdyenAdapter.savedMethods lists them (the $cashtag is in /paymentMethods' listing only).
        let listed = try await adyen.paymentMethods(amount: nil, idempotencyKey: UUID().uuidString)
        #expect(listed.storedPaymentMethods?.contains { $0.id == storedMethod } == true, "stored methods: \(listed)")
        try await adyen.deleteStoredPaymentMethod(id: storedMethod)

        // As CashAppAdapter.update does when the cart changes before authorizing; an order
        // without metadata clears it (`"metadata": null`).
        let requests = CashAppRequests(provider: CustomerRequestClient.provider, client: CustomerRequestClient(configuration: cashAppConfiguration, http: http))
        func actions(_ amount: Int) -> [PaymentAction] { [.oneTimePayment(scopeID: cashAppConfiguration.brandID, amount: amount, currency: "USD")] }
        let attempt = try await requests.create(
            CreateCustomerRequestParams(
                actions: actions(4505), channel: .ONLINE, redirectURL: "terminalcheckout://checkout/return", referenceID: "tc-conformance",
                metadata: ["cart_items": "3"]),
            idempotencyKey: UUID().uuidString.lowercased())
        _ = try await requests.update(attempt, actions: actions(5005), reference: attempt.reference, metadata: ["cart_items": "4"])
        _ = try await requests.update(attempt, actions: actions(1650), reference: attempt.reference, metadata: nil)
        // As the screen's keep-on-file switch makes a request created on load follow it: the
        // one-time payment and an ON_FILE_PAYMENT action.
        let onFile = CashAppAdapter.actions(
            scopeID: cashAppConfiguration.brandID, amount: Money(minorUnits: 1650, currency: .usd),
            settings: CashAppPaySettings(onFile: .also, accountReferenceID: "customer-conformance"))
        _ = try await requests.update(attempt, actions: onFile, reference: attempt.reference, metadata: nil)

        let uploader = SquareOfflineUploader(
            store: SquareOfflineDatabase(path: offlineQueue), client: SquareClient(configuration: squareConfiguration, http: http))
        let uploads = await uploader.uploadQueued()
        #expect(uploads.count == 1 && uploads.allSatisfy { !$0.isStillQueued }, "upload: \(uploads)")

        let entries: [[String: Any]] = log.entries.map { exchange in
            var request: [String: Any] = [
                "method": exchange.method, "url": exchange.url,
                "headers": exchange.requestHeaders.map { ["name": $0.name, "value": $0.value] },
            ]
            if let body = exchange.requestBody { request["postData"] = ["mimeType": "application/json", "text": body] }
            return ["_provider": exchange.provider, "request": request, "response": ["status": exchange.status ?? 0]]
        }
        let document: [String: Any] = ["log": ["version": "1.2", "entries": entries]]
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: file)
    }

    /// Runs a script of Tests/Conformance in the test venv; nil (after recording an issue, so
    /// the test fails rather than skips) when the venv is missing.
    static func python(_ script: String, _ arguments: [String]) async throws -> CheckoutBinary.Outcome? {
        let python = ConformanceScript.root.appendingPathComponent(".build/python/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("The Python venv with openapi-core and jsonschema is missing (\(python)): run `make test` (or .ci/ensure-packages.sh --with-python).")
            return nil
        }
        let child = try ChildProcess([python, ConformanceScript.root.appendingPathComponent("Tests/Conformance/\(script)").path] + arguments)
        let status = await child.exit(timeout: 120)
        return CheckoutBinary.Outcome(status: status, stdout: child.stdout, stderr: child.stderr)
    }
}
