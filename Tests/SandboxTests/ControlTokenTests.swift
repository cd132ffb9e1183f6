import CheckoutApp
import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// Who may steer a shared sandbox: with a control token, every `/sandbox/` route but the
/// customer's own pages and the health check needs `Authorization: Bearer <token>` (401 in the
/// sandbox's own error list otherwise); without one, everything answers as it always did. Each
/// sandbox here is a real server on 127.0.0.1 port 0.
@Suite struct ControlTokenTests {
    static let token = "team-sandbox-token-0123456789abcdef"
    /// As long as the token, one character off.
    static let wrongSameLength = "team-sandbox-token-0123456789abcdeF"
    static let wrongShorter = "team-sandbox-token"

    /// A sandbox with the built-in providers, with `token` as its control token (nil: none).
    static func withSandbox<T: Sendable>(token: String?, _ body: (String) async throws -> T) async throws -> T {
        var settings = SandboxSettings()
        settings.controlToken = token.flatMap(SandboxControlToken.init)
        if token != nil { #expect(settings.controlToken != nil) }
        return try await SandboxServer.withRunning(settings) { sandbox in try await body(sandbox.baseURL) }
    }

    static func send(
        _ method: String, _ url: String, json: String? = nil, authorization: String? = nil, form: Bool = false
    ) async throws -> ProviderResponse {
        var headers: [(name: String, value: String)] = []
        if json != nil { headers.append((name: "Content-Type", value: "application/json")) }
        if form { headers.append((name: "Content-Type", value: "application/x-www-form-urlencoded")) }
        if let authorization { headers.append((name: "Authorization", value: authorization)) }
        return try await ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never).send(
            ProviderRequest(method: method, url: url, headers: headers, body: json.map { Data($0.utf8) }), provider: "test")
    }

    /// A pending Cash App request made through its API (the provider's own credentials).
    static func pendingRequest(_ baseURL: String) async throws -> CustomerRequest {
        let client = CustomerRequestClient(
            configuration: CashAppConfiguration(baseURL: baseURL, clientID: SandboxHarness.clientID, brandID: SandboxHarness.brandID),
            http: ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never))
        return try await client.create(SandboxHarness.params())
    }

    /// Every control route a test can name, with a body where it takes one. `GET /sandbox/journal`
    /// and a path no route answers stand for the routes added later: guarded by default.
    static func controlRoutes(requestID: String) -> [(method: String, path: String, json: String?)] {
        [
            ("GET", "/sandbox/ledger", nil),
            ("GET", "/sandbox/faults", nil),
            ("POST", "/sandbox/faults", #"{"fault": "GET /nowhere 503"}"#),
            ("DELETE", "/sandbox/faults", nil),
            ("GET", "/sandbox/webhooks", nil),
            ("GET", "/sandbox/webhooks/deliveries", nil),
            ("POST", "/sandbox/webhooks", #"{"url": "http://127.0.0.1:9/hook"}"#),
            ("DELETE", "/sandbox/webhooks/WHR_unknown", nil),
            ("GET", "/sandbox/antom/keys", nil),
            ("POST", "/sandbox/antom/clients", #"{"client_id": "SANDBOX_X", "public_key": "x"}"#),
            ("POST", "/sandbox/adyen/stored-payment-methods/unknown/disable", nil),
            ("POST", "/sandbox/customer-requests/\(requestID)/abandon", nil),
            ("GET", "/sandbox/journal", nil),
            ("GET", "/sandbox/no-such-route", nil),
            ("POST", "/sandbox/health", nil),
            ("GET", "//sandbox/ledger", nil),
            ("GET", "/sandbox//ledger/", nil),
            ("GET", "/%73andbox/ledger", nil),
            ("GET", "/SANDBOX/ledger", nil),
        ]
    }

    @Test func theTokenRuleIsCheckedWhereItEnters() {
        #expect(SandboxControlToken.problem(Self.token) == nil)
        #expect(SandboxControlToken.problem("short")?.contains("at least 16 characters") == true)
        #expect(SandboxControlToken.problem("sixteen chars ok")?.contains("printable ASCII without spaces") == true)
        #expect(SandboxControlToken.problem("tab\there-0123456789")?.contains("printable ASCII") == true)
        #expect(SandboxControlToken.problem("ünïcödé-0123456789")?.contains("printable ASCII") == true)
        #expect(SandboxControlToken.problem(String(repeating: "x", count: 513))?.contains("at most 512") == true)
        #expect(SandboxControlToken("short") == nil)
        // The token never prints.
        let token = try! #require(SandboxControlToken(Self.token))
        #expect(!"\(token)".contains(Self.token))
        #expect(!String(reflecting: token).contains(Self.token))
    }

    @Test func onlyTheBearerTokenItselfIsAdmitted() throws {
        let token = try #require(SandboxControlToken(Self.token))
        #expect(token.admits(authorization: "Bearer \(Self.token)"))
        #expect(token.admits(authorization: "bearer \(Self.token)"))
        for refused in [
            nil, "", "Bearer", "Bearer ", Self.token, "Basic \(Self.token)", "Bearer \(Self.wrongSameLength)", "Bearer \(Self.wrongShorter)",
            "Bearer \(Self.token)x", "Bearer \(Self.token.dropLast())",
        ] {
            #expect(!token.admits(authorization: refused), "\(refused ?? "nil") was admitted")
        }
    }

    @Test func withoutATokenEveryRouteAnswersAsItAlwaysDid() async throws {
        try await Self.withSandbox(token: nil) { base in
            let request = try await Self.pendingRequest(base)
            #expect(try await Self.send("GET", base + "/sandbox/ledger").status == 200)
            #expect(try await Self.send("GET", base + "/sandbox/faults").status == 200)
            #expect(try await Self.send("POST", base + "/sandbox/faults", json: #"{"fault": "GET /nowhere 503"}"#).status == 201)
            #expect(try await Self.send("GET", base + "/sandbox/webhooks").status == 200)
            #expect(try await Self.send("GET", base + "/sandbox/no-such-route").status == 404)
            let approved = try await Self.send("POST", base + "/sandbox/customer-requests/\(request.id)/approve")
            #expect(approved.status == 200)
            #expect(approved.headers.first { $0.name.lowercased() == "www-authenticate" } == nil)
        }
    }

    @Test func everyControlRouteNeedsTheToken() async throws {
        try await Self.withSandbox(token: Self.token) { base in
            let request = try await Self.pendingRequest(base)
            for route in Self.controlRoutes(requestID: request.id) {
                let name = "\(route.method) \(route.path)"
                for (sent, code) in [
                    (nil, "CONTROL_TOKEN_REQUIRED"), ("Bearer \(Self.wrongSameLength)", "CONTROL_TOKEN_REJECTED"),
                    ("Bearer \(Self.wrongShorter)", "CONTROL_TOKEN_REJECTED"), (Self.token, "CONTROL_TOKEN_REJECTED"),
                    ("Basic \(Data("100101:\(Self.token)".utf8).base64EncodedString())", "CONTROL_TOKEN_REJECTED"),
                ] as [(String?, String)] {
                    let response = try await Self.send(route.method, base + route.path, json: route.json, authorization: sent)
                    #expect(response.status == 401, "\(name) with \(sent == nil ? "no token" : "a wrong token"): HTTP \(response.status)")
                    let challenge = response.headers.first { $0.name.lowercased() == "www-authenticate" }?.value ?? ""
                    #expect(challenge.hasPrefix("Bearer"), "\(name): WWW-Authenticate is \(challenge)")
                    let body = try JSONDecoder().decode(SandboxErrorListBody.self, from: response.body)
                    #expect(body.errors.first?.code == code, "\(name): \(body)")
                    #expect(body.errors.first?.category == "AUTHENTICATION_ERROR", "\(name): \(body)")
                    // What was sent is never echoed.
                    #expect(!String(decoding: response.body, as: UTF8.self).contains("token-0123"), "\(name) echoed the token")
                }
            }
            // The request was not touched by any of it.
            #expect(try await Self.send("GET", base + "/sandbox/ledger", authorization: "Bearer \(Self.token)").status == 200)
            let pending = try await Self.send(
                "GET", base + "/customer-request/v1/requests/\(request.id)", authorization: "Client \(SandboxHarness.clientID)")
            #expect(String(decoding: pending.body, as: UTF8.self).contains("\"PENDING\""))
        }
    }

    @Test func withTheTokenTheControlRoutesAnswer() async throws {
        try await Self.withSandbox(token: Self.token) { base in
            let bearer = "Bearer \(Self.token)"
            let request = try await Self.pendingRequest(base)
            #expect(try await Self.send("GET", base + "/sandbox/ledger", authorization: bearer).status == 200)
            #expect(try await Self.send("GET", base + "/sandbox/faults", authorization: bearer).status == 200)
            #expect(try await Self.send("POST", base + "/sandbox/faults", json: #"{"fault": "GET /nowhere 503"}"#, authorization: bearer).status == 201)
            #expect(try await Self.send("DELETE", base + "/sandbox/faults", authorization: bearer).status == 200)
            #expect(try await Self.send("GET", base + "/sandbox/webhooks", authorization: bearer).status == 200)
            #expect(try await Self.send("GET", base + "/sandbox/webhooks/deliveries", authorization: bearer).status == 200)
            #expect(try await Self.send("GET", base + "/sandbox/antom/keys", authorization: bearer).status == 200)
            // Past the token, the routes' own answers: an unknown path is the router's 404 again.
            #expect(try await Self.send("GET", base + "/sandbox/no-such-route", authorization: bearer).status == 404)
            #expect(try await Self.send("POST", base + "/sandbox/customer-requests/\(request.id)/approve", authorization: bearer).status == 200)
        }
    }

    @Test func theCustomersOwnPagesNeedOnlyTheirLinks() async throws {
        try await Self.withSandbox(token: Self.token) { base in
            #expect(try await Self.send("GET", base + "/sandbox/health").status == 200)
            #expect(try await Self.send("GET", base + "/sandbox/cashapp/merchant-logo.png").status == 200)
            let request = try await Self.pendingRequest(base)
            let triggers = try #require(request.authFlowTriggers)
            for url in [triggers.mobileURL, triggers.qrCodeSVGURL, triggers.qrCodeImageURL] {
                #expect(try await Self.send("GET", url).status == 200, "\(url)")
            }
            // The page's buttons carry its link's t=, which lets them past the control token.
            let page = String(decoding: try await Self.send("GET", triggers.mobileURL).body, as: UTF8.self)
            let token = try #require(triggers.mobileURL.components(separatedBy: "?t=").last)
            #expect(page.contains("/sandbox/customer-requests/\(request.id)/approve?t=\(token)"), "\(page)")
            // Another request's t=, or none, does not.
            let other = try await Self.pendingRequest(base)
            let otherToken = try #require(other.authFlowTriggers?.mobileURL.components(separatedBy: "?t=").last)
            let approve = base + "/sandbox/customer-requests/\(request.id)/approve"
            #expect(try await Self.send("POST", approve, form: true).status == 401)
            #expect(try await Self.send("POST", approve + "?t=\(otherToken)", form: true).status == 401)
            #expect(try await Self.send("POST", approve + "?t=0-", form: true).status == 401)
            #expect(try await Self.send("POST", base + "/sandbox/customer-requests/\(request.id)/abandon?t=\(token)").status == 401)
            let approved = try await Self.send("POST", approve + "?t=\(token)", form: true)
            #expect(approved.status == 303)
            let back = approved.headers.first { $0.name.lowercased() == "location" }?.value
            #expect(back == "/sandbox/customer-requests/\(request.id)/authorize?t=\(token)")
            let done = String(decoding: try await Self.send("GET", base + back!).body, as: UTF8.self)
            #expect(done.contains("Approved"), "\(done)")
            let declined = try await Self.send("POST", base + "/sandbox/customer-requests/\(other.id)/decline?t=\(otherToken)", form: true)
            #expect(declined.status == 303)
            // Afterpay's checkout page, Antom's cashier and Square's receipts answer for themselves (here: no such link).
            for path in [
                "/sandbox/afterpay/checkout?token=unknown", "/sandbox/antom/cashier/SBXSESSIONunknown", "/sandbox/antom/cashier/SBXSESSIONunknown/page",
                "/sandbox/antom/cashier/SBXSESSIONunknown/banks/KBANK", "/sandbox/square/receipts/UNKNOWN",
            ] {
                let response = try await Self.send("GET", base + path)
                #expect(response.status == 404, "GET \(path): HTTP \(response.status)")
            }
            for action in ["pay", "fail", "abandon"] {
                let response = try await Self.send("POST", base + "/sandbox/antom/cashier/SBXSESSIONunknown/\(action)")
                #expect(response.status == 404, "POST …/\(action): HTTP \(response.status)")
            }
        }
    }

    @Test func theProvidersAPIsKeepTheirOwnCredentialChecks() async throws {
        try await Self.withSandbox(token: Self.token) { base in
            // The Cash App API with its client credentials, no control token: as always.
            let request = try await Self.pendingRequest(base)
            #expect(request.status == .PENDING)
            // Without its credentials: Cash App's own 401, not the control token's.
            let refused = try await Self.send("GET", base + "/customer-request/v1/requests/\(request.id)")
            #expect(refused.status == 401)
            #expect(!String(decoding: refused.body, as: UTF8.self).contains("CONTROL_TOKEN"))
            // The control token is no credential for a provider's API either.
            let bearer = try await Self.send("GET", base + "/customer-request/v1/requests/\(request.id)", authorization: "Bearer \(Self.token)")
            #expect(bearer.status == 401)
            #expect(!String(decoding: bearer.body, as: UTF8.self).contains("CONTROL_TOKEN"))
        }
    }

    @Test func theCheckoutsClientSendsTheTokenToTheSandboxAloneAndNeverRecordsIt() async throws {
        try await Self.withSandbox(token: Self.token) { base in
            let log = ExchangeLog()
            let http = ProviderHTTPClient(
                log: log, redactor: Redactor(secrets: [Self.token]), timeout: .seconds(30), retryPolicy: .never, sandboxRun: (baseURL: base, runID: "run-test"),
                sandboxControlToken: Self.token)
            let control = SandboxControlClient(baseURL: base, http: http, sendsToken: true)
            try await control.inject(fault: "GET /nowhere 503", owner: "run-test")
            #expect(try await control.removeFaults(owner: "run-test") == 1)
            // A provider's API call keeps its own Authorization.
            let client = CustomerRequestClient(
                configuration: CashAppConfiguration(baseURL: base, clientID: SandboxHarness.clientID, brandID: SandboxHarness.brandID), http: http)
            let request = try await client.create(SandboxHarness.params())
            try await control.act(.approve, on: request.id)
            let recorded = String(decoding: try JSONEncoder().encode(log.entries), as: UTF8.self)
            #expect(!recorded.contains(Self.token))
            #expect(recorded.contains("Bearer [REDACTED]"))
            #expect(log.entries.filter { $0.url.contains("/customer-request/") }.allSatisfy { exchange in
                exchange.requestHeaders.contains { $0.name == "Authorization" && $0.value.hasPrefix("Client ") }
            })
        }
    }

    @Test func aRefusedTokenIsAClearClientError() async throws {
        try await Self.withSandbox(token: Self.token) { base in
            let request = try await Self.pendingRequest(base)
            let none = SandboxControlClient(baseURL: base, http: ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never))
            let missing = try #require(await failure { () async throws(SandboxControlFailure) in try await none.act(.approve, on: request.id) })
            #expect(missing.isControlTokenRefusal)
            #expect(missing.description == "the sandbox at \(base) needs a control token: pass --sandbox-token-file or set CHECKOUT_SANDBOX_CONTROL_TOKEN")
            let wrong = SandboxControlClient(
                baseURL: base,
                http: ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never, sandboxRun: (baseURL: base, runID: "run-x"), sandboxControlToken: Self.wrongSameLength),
                sendsToken: true)
            let refused = try #require(await failure { () async throws(SandboxControlFailure) in try await wrong.inject(fault: "GET /x 503") })
            #expect(refused.isControlTokenRefusal)
            #expect(refused.description.contains("did not accept the control token given"))
            #expect(!refused.description.contains(Self.wrongSameLength))
        }
    }
}

/// `checkout config check` tries a profile's `sandbox_control_token` on the shared sandbox.
@Suite struct ControlTokenConfigCheckTests {
    @Test func theCheckTriesTheTokenOnAControlRouteAndNeverShowsIt() async throws {
        try await ControlTokenTests.withSandbox(token: ControlTokenTests.token) { base in
            let good = Profile(name: "team", sandboxURL: base)
            var withToken = good
            withToken.sandboxControlToken = .environment("TEAM_TOKEN")
            let environment = ["TEAM_TOKEN": ControlTokenTests.token]
            let passed = await ProfileCheck.run(withToken, path: "config.yaml", environment: environment)
            #expect(passed.passed)
            #expect(passed.endpoints.map(\.call) == ["GET /sandbox/health", "GET /sandbox/faults with the control token"])
            let text = ProfileListing.checkText(passed)
            #expect(text.contains("✓ sandbox_control_token from env TEAM_TOKEN: resolved"), "\(text)")
            #expect(text.contains("Bearer [REDACTED]"), "\(text)")
            #expect(!text.contains(ControlTokenTests.token))
            #expect(!ProfileListing.checkJSON(passed).contains(ControlTokenTests.token))

            let wrong = await ProfileCheck.run(withToken, path: "config.yaml", environment: ["TEAM_TOKEN": ControlTokenTests.wrongSameLength])
            #expect(!wrong.passed)
            #expect(ProfileListing.checkText(wrong).contains("refused the control token (HTTP 401)"))
            #expect(!ProfileListing.checkText(wrong).contains(ControlTokenTests.wrongSameLength))

            // A profile without the key checks the health alone, as before.
            #expect(await ProfileCheck.run(good, path: "config.yaml", environment: [:]).endpoints.map(\.call) == ["GET /sandbox/health"])
        }
    }
}
