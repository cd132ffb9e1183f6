import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

@Suite struct FaultSpecTests {
    @Test func parsesMethodPathKindAndCount() throws {
        #expect(try FaultRule(spec: "POST /v2/payments/capture reset") == FaultRule(method: "POST", pathPrefix: "/v2/payments/capture", kind: .reset, remaining: 1))
        #expect(try FaultRule(spec: "get /customer-request/v1/requests 503*3") == FaultRule(method: "GET", pathPrefix: "/customer-request/v1/requests", kind: .serviceUnavailable, remaining: 3))
        #expect(try FaultRule(spec: "* / slow").method == "*")
        for kind in FaultKind.allCases { #expect(try FaultRule(spec: "GET /x \(kind.rawValue)").kind == kind) }
    }

    @Test(arguments: [
        ("POST /x", "three words"), ("POST x 500", "start with /"), ("POST /x 418", "not a fault kind"),
        ("POST /x 500*0", "positive count"), ("POST /x 500*two", "positive count"), ("P0ST /x 500", "HTTP method"),
    ])
    func explainsWhatIsWrong(spec: String, mentions: String) {
        do {
            _ = try FaultRule(spec: spec)
            Issue.record("\(spec) should not parse")
        } catch {
            #expect(error.description.contains(mentions), "\(error)")
            #expect(error.description.contains("METHOD PATH-PREFIX KIND[*N]"))
        }
    }
}

/// Each fault kind through the real client over a real socket.
@Suite struct FaultInjectionTests {
    private func apiFailure(_ harness: SandboxHarness) async -> (Int, String, String)? {
        let outcome = await failure { () throws(CustomerRequestFailure) in try await harness.client().create(SandboxHarness.params()) }
        guard case .api(let status, let errors)? = outcome, let first = errors.first else { return nil }
        return (status, first.category, first.code)
    }

    @Test(arguments: [
        ("500", 500, "API_ERROR", "INTERNAL_SERVER_ERROR"), ("503", 503, "API_ERROR", "SERVICE_UNAVAILABLE"),
        ("504", 504, "API_ERROR", "GATEWAY_TIMEOUT"), ("429", 429, "RATE_LIMIT_ERROR", "RATE_LIMITED"),
    ])
    func statusFaultsAnswerInTheProvidersErrorShape(kind: String, status: Int, category: String, code: String) async throws {
        try await SandboxHarness.with { harness in
            try harness.inject("POST /customer-request/v1/requests \(kind)")
            let answer = await apiFailure(harness)
            #expect(answer?.0 == status)
            #expect(answer?.1 == category)
            #expect(answer?.2 == code)
            #expect(harness.sandbox.store.requestCount == 0)
            // Used up: the next create goes through.
            _ = try await harness.client().create(SandboxHarness.params())
        }
    }

    @Test func aCountAppliesToThatManyRequests() async throws {
        try await SandboxHarness.with { harness in
            try harness.inject("POST /customer-request 500*2")
            #expect(await apiFailure(harness)?.0 == 500)
            #expect(await apiFailure(harness)?.0 == 500)
            #expect(await apiFailure(harness) == nil)
        }
    }

    @Test func aLostResponseIsRetriedWithTheSameKeyAndCreatesOnce() async throws {
        try await SandboxHarness.with { harness in
            try harness.inject("POST /customer-request/v1/requests reset")
            let created = try await harness.client().create(SandboxHarness.params())
            #expect(harness.sandbox.store.requestCount == 1)
            let attempts = harness.log.entries.map { "\($0.attempt):\($0.status.map(String.init) ?? "none")" }
            #expect(attempts == ["1:none", "2:201"])
            #expect(harness.log.entries[0].failure != nil)
            #expect(try await harness.client().retrieve(id: created.id).id == created.id)
        }
    }

    @Test func aMalformedBodyIsRetried() async throws {
        try await SandboxHarness.with { harness in
            let created = try await harness.client().create(SandboxHarness.params())
            try harness.inject("GET /customer-request/v1/requests malformed")
            #expect(try await harness.client().retrieve(id: created.id).id == created.id)
            #expect(harness.log.entries.suffix(2).map(\.attempt) == [1, 2])
        }
    }

    @Test func noAnswerInTimeIsRetried() async throws {
        try await SandboxHarness.with(faultDelaySeconds: 4) { harness in
            try harness.inject("POST /customer-request/v1/requests timeout")
            _ = try await harness.client(timeout: .seconds(1)).create(SandboxHarness.params())
            #expect(harness.log.entries.map(\.attempt) == [1, 2])
            #expect(harness.log.entries[0].failure?.contains("no response within") == true)
            // A timed-out request was never processed, so only the retry created one.
            #expect(harness.sandbox.store.requestCount == 1)
        }
    }

    @Test func transportFaultsThatOutlastTheRetriesFail() async throws {
        try await SandboxHarness.with { harness in
            try harness.inject("POST /customer-request/v1/requests reset*5")
            let outcome = await failure { () throws(CustomerRequestFailure) in try await harness.client().create(SandboxHarness.params()) }
            guard case .transport(.connectionLost)? = outcome else { Issue.record("got \(String(describing: outcome))"); return }
            #expect(harness.log.entries.count == 3)
            #expect(harness.sandbox.store.requestCount == 1)
        }
    }

    @Test func slowAnswersStillArrive() async throws {
        try await SandboxHarness.with(faultDelaySeconds: 0.3) { harness in
            try harness.inject("POST / slow")
            _ = try await harness.client().create(SandboxHarness.params())
            #expect(harness.log.entries.count == 1)
            #expect(harness.log.entries[0].durationMilliseconds >= 300)
        }
    }

    @Test func theControlAPIAddsListsAndClearsFaults() async throws {
        try await SandboxHarness.with { harness in
            let added = try await harness.raw(method: "POST", path: "/sandbox/faults", body: #"{"fault": "GET /customer-request 503*2"}"#)
            #expect(added.status == 201)
            let listed = try await harness.raw(method: "GET", path: "/sandbox/faults", body: nil)
            #expect(String(decoding: listed.body, as: UTF8.self).contains(#""remaining":2"#))
            let bad = try await harness.raw(method: "POST", path: "/sandbox/faults", body: #"{"fault": "GET /x teapot"}"#)
            #expect(bad.status == 400)
            #expect(String(decoding: bad.body, as: UTF8.self).contains("not a fault kind"))
            let cleared = try await harness.raw(method: "DELETE", path: "/sandbox/faults", body: nil)
            #expect(cleared.status == 200)
            #expect(harness.sandbox.faults.pending.isEmpty)
        }
    }
}
