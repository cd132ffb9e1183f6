import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// The request journal over a real socket (port 0, the in-memory store): what `GET
/// /sandbox/journal` lists, its filters and their 400s, redaction, bodies cut short, paging and
/// the retention bounds.
@Suite struct JournalTests {
    static let client = (name: "Authorization", value: "Client \(SandboxHarness.clientID)")

    static func createBody(_ key: String, reference: String = "order-1") -> String {
        #"{"idempotency_key":"\#(key)","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"\#(SandboxHarness.brandID)","amount":4505,"currency":"USD"}],"channel":"ONLINE","redirect_url":"terminalcheckout://return","reference_id":"\#(reference)"}}"#
    }

    /// Creates a Cash App request (sent as run `run` when given); answers its id.
    static func create(_ baseURL: String, key: String = UUID().uuidString, run: String? = nil) async throws -> String {
        var headers = [client]
        if let run { headers.append((name: SandboxRunHeader.name, value: run)) }
        let answer = try await CheckoutBinary.send("POST", baseURL + "/customer-request/v1/requests", json: createBody(key), headers: headers)
        #expect(answer.status == 201, "create: \(String(decoding: answer.body, as: UTF8.self))")
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return try #require((object?["request"] as? [String: Any])?["id"] as? String, "create answered no request.id")
    }

    static func journal(_ baseURL: String, _ query: String = "") async throws -> SandboxJournalPage {
        let answer = try await CheckoutBinary.send("GET", baseURL + "/sandbox/journal" + (query.isEmpty ? "" : "?" + query))
        #expect(answer.status == 200, "GET /sandbox/journal?\(query): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        return try WireJSON.decoder().decode(SandboxJournalPage.self, from: answer.body)
    }

    @Test func aRequestIsListedRightAfterItsAnswerWithItsProviderRunAndIds() async throws {
        try await SandboxHarness.with { harness in
            let id = try await Self.create(harness.baseURL, run: "run-journal-1")
            let retrieved = try await CheckoutBinary.send(
                "GET", harness.baseURL + "/customer-request/v1/requests/\(id)", headers: [Self.client])
            #expect(retrieved.status == 200)
            let page = try await Self.journal(harness.baseURL)
            #expect(page.entries.map(\.method) == ["POST", "GET"], "entries: \(page.entries.map(\.path))")
            #expect(page.more == false)
            let create = try #require(page.entries.first)
            #expect(create.path == "/customer-request/v1/requests")
            #expect(create.status == 201)
            #expect(create.provider == "cashapp")
            #expect(create.run == "run-journal-1")
            #expect(create.references.contains(id), "create's references: \(create.references)")
            #expect(create.references.contains("order-1"))
            #expect(create.request.body?.contains("idempotency_key") == true)
            #expect(create.response.body?.contains(id) == true)
            #expect(create.durationMilliseconds >= 0)
            let retrieve = page.entries[1]
            #expect(retrieve.references.first == id, "the id in the path is a reference: \(retrieve.references)")
            #expect(retrieve.run == nil)
            #expect(page.entries.map(\.id) == [1, 2])
            #expect(page.next == 2)
            // Its own reads are not journaled.
            let again = try await Self.journal(harness.baseURL)
            #expect(again.entries.count == 2)
            #expect(try await Self.journal(harness.baseURL, "since=2").entries.isEmpty)
        }
    }

    @Test func filtersPickByProviderPathStatusReferenceAndTime() async throws {
        try await SandboxHarness.with { harness in
            let first = try await Self.create(harness.baseURL)
            let second = try await Self.create(harness.baseURL)
            _ = try await CheckoutBinary.send("GET", harness.baseURL + "/customer-request/v1/requests/GRR_nosuchrequest", headers: [Self.client])
            _ = try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/health")
            let base = harness.baseURL
            #expect(try await Self.journal(base, "provider=cashapp").entries.count == 3)
            #expect(try await Self.journal(base, "provider=none").entries.map(\.path) == ["/sandbox/health"])
            #expect(try await Self.journal(base, "provider=afterpay").entries.isEmpty)
            #expect(try await Self.journal(base, "status=201").entries.count == 2)
            #expect(try await Self.journal(base, "status=4xx").entries.map(\.status) == [404])
            #expect(try await Self.journal(base, "status=2XX").entries.count == 3)
            #expect(try await Self.journal(base, "path=/sandbox/").entries.count == 1)
            #expect(try await Self.journal(base, "path=/customer-request/v1/requests/GRR_").entries.count == 1)
            #expect(try await Self.journal(base, "reference=\(second)").entries.map(\.id) == [2])
            #expect(try await Self.journal(base, "reference=\(first)").entries.map(\.id) == [1])
            #expect(try await Self.journal(base, "since=2").entries.map(\.id) == [3, 4])
            let time = ISO8601Milliseconds.string(from: harness.clock.now)
            #expect(try await Self.journal(base, "since=\(time)").entries.count == 4)
            harness.clock.advance(by: 10)
            _ = try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/health")
            let later = ISO8601Milliseconds.string(from: harness.clock.now.addingTimeInterval(-1))
            #expect(try await Self.journal(base, "since=\(later)").entries.map(\.id) == [5])
        }
    }

    @Test(arguments: [
        ("since=yesterday", "since"), ("since=-1", "since"), ("provider=stripe", "provider"), ("path=v2", "path"),
        ("status=7xx", "status"), ("status=20", "status"), ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=ten", "limit"),
        ("reference=", "reference"), ("colour=blue", "colour"), ("since=1&since=2", "since"),
    ])
    func eachBadParameterIs400NamingIt(query: String, parameter: String) async throws {
        try await SandboxHarness.with { harness in
            let answer = try await CheckoutBinary.send("GET", harness.baseURL + "/sandbox/journal?" + query)
            #expect(answer.status == 400, "\(query): \(answer.status)")
            let body = try JSONDecoder().decode(SandboxErrorListBody.self, from: answer.body)
            let error = try #require(body.errors.first, "\(query): no error in \(String(decoding: answer.body, as: UTF8.self))")
            #expect(error.field == parameter, "\(query): field \(error.field ?? "nil")")
            #expect(error.code == "INVALID_PARAMETER")
            #expect(error.detail?.contains(parameter) == true, "\(query): \(error.detail ?? "")")
        }
    }

    @Test func providerRefusalListsTheProvidersAndNone() async throws {
        try await SandboxHarness.with { harness in
            let answer = try await CheckoutBinary.send("GET", harness.baseURL + "/sandbox/journal?provider=stripe")
            let detail = try JSONDecoder().decode(SandboxErrorListBody.self, from: answer.body).errors.first?.detail ?? ""
            #expect(detail.contains("cashapp") && detail.contains("none"), "\(detail)")
        }
    }

    @Test func credentialsAndSecretFieldsNeverAppear() async throws {
        try await SandboxHarness.with { harness in
            _ = try await Self.create(harness.baseURL)
            let secretBody = #"{"url": "http://127.0.0.1:9/", "password": "hunter2-very-secret", "nested": {"client_secret": "cs_live_topsecret"}}"#
            _ = try await CheckoutBinary.send(
                "POST", harness.baseURL + "/sandbox/webhooks", json: secretBody,
                headers: [(name: "Authorization", value: "Bearer tok_supersecret"), (name: "Cookie", value: "session=cookiesecret")])
            // A body cut short (over 16 KiB) is not JSON any more: its secret field is still found.
            let long = #"{"password": "cut-short-secret", "padding": ""# + String(repeating: "x", count: 20_000) + #""}"#
            _ = try await CheckoutBinary.send("POST", harness.baseURL + "/sandbox/webhooks", json: long)
            _ = try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/customer-requests/GRR_x/qr.svg?t=pagetokensecret")
            let page = try await Self.journal(harness.baseURL)
            let text = String(decoding: try WireJSON.encoder().encode(page), as: UTF8.self)
            for secret in [SandboxHarness.clientID, "hunter2-very-secret", "cs_live_topsecret", "tok_supersecret", "cookiesecret", "cut-short-secret", "pagetokensecret"] {
                #expect(!text.contains(secret), "\(secret) appears in the journal")
            }
            #expect(text.contains("Client [REDACTED]"))
            #expect(text.contains("Bearer [REDACTED]"))
            let cut = try #require(page.entries.first { $0.request.bodyBytes > 16_384 })
            #expect(cut.request.truncated)
            #expect(cut.request.body?.utf8.count ?? 0 <= SandboxJournalEntry.maxBodyBytes)
            #expect(cut.request.body?.contains(#""password": "[REDACTED]""#) == true)
            let page2 = try #require(page.entries.last)
            #expect(page2.path.hasSuffix("?t=[REDACTED]"), "\(page2.path)")
        }
    }

    @Test func sinceEndGivesTheNewestIdAndAFaultIsNamed() async throws {
        try await SandboxHarness.with { harness in
            #expect(try await Self.journal(harness.baseURL, "since=end").next == 0)
            try await harness.inject("GET /sandbox/ledger 503")
            _ = try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/health")
            let end = try await Self.journal(harness.baseURL, "since=end")
            #expect(end.entries.isEmpty)
            #expect(end.next == 1)
            try await harness.inject("GET /customer-request/v1/requests/ 503")
            _ = try await CheckoutBinary.send("GET", harness.baseURL + "/customer-request/v1/requests/GRR_faulted", headers: [Self.client])
            let faulted = try #require(try await Self.journal(harness.baseURL, "since=\(end.next)").entries.first)
            #expect(faulted.fault == "503")
            #expect(faulted.status == 503)
            #expect(faulted.provider == "cashapp")
        }
    }

    @Test func pagesFollowTheCursor() async throws {
        try await SandboxHarness.with { harness in
            for _ in 0..<5 { _ = try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/health") }
            var seen: [Int] = []
            var since = 0
            var pages = 0
            while true {
                let page = try await Self.journal(harness.baseURL, "since=\(since)&limit=2")
                seen += page.entries.map(\.id)
                since = page.next
                pages += 1
                if !page.more || pages > 10 { break }
            }
            #expect(seen == [1, 2, 3, 4, 5])
            #expect(pages == 3)
        }
    }

    @Test func retentionKeepsTheNewestEntriesUpToTheCountAndForgetsOldOnes() async throws {
        var limits = SandboxLimits()
        limits.maxJournalEntries = 3
        limits.requestRetention = 60
        try await SandboxHarness.with(limits: limits) { harness in
            for _ in 0..<5 { _ = try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/health") }
            #expect(try await Self.journal(harness.baseURL).entries.map(\.id) == [3, 4, 5])
            harness.clock.advance(by: 61)
            #expect(try await Self.journal(harness.baseURL).entries.isEmpty)
            _ = try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/health")
            #expect(try await Self.journal(harness.baseURL).entries.map(\.id) == [6])
        }
    }

    @Test func noEntriesKeepsNoJournal() async throws {
        var limits = SandboxLimits()
        limits.maxJournalEntries = 0
        try await SandboxHarness.with(limits: limits) { harness in
            _ = try await CheckoutBinary.fetch(harness.baseURL + "/sandbox/health")
            let page = try await Self.journal(harness.baseURL)
            #expect(page.entries.isEmpty)
            #expect(page.next == 0)
        }
    }

    @Test func anOversizedBodyIsStillRefusedAndListed() async throws {
        var limits = SandboxLimits()
        limits.maxBodyBytes = 2_048
        try await SandboxHarness.with(limits: limits) { harness in
            let big = #"{"url": ""# + String(repeating: "y", count: 4_000) + #""}"#
            let answer = try await CheckoutBinary.send("POST", harness.baseURL + "/sandbox/webhooks", json: big)
            #expect(answer.status == 413)
            let entry = try #require(try await Self.journal(harness.baseURL).entries.last)
            #expect(entry.status == 413)
            #expect(entry.request.bodyBytes > 2_048)
        }
    }
}
