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
        // Each field is checked whole, naming what is allowed.
        ("GET / 503*", "count \"*\""), ("GET /x 503*+3", "count"), ("GET /x 503*10001", "from 1 to 10000"),
        ("GET /x 503*99999999999999999999", "count"), ("FOO /x 503", "one of *, GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
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

    /// A third word of only "*" trapped on an empty split (FuzzFaultSpec reproduces it).
    @Test(arguments: ["GET / *", "GET / **", "GET / *5"])
    func aKindMadeOfStarsIsRefused(spec: String) {
        #expect(throws: FaultSpecError.self) { try FaultRule(spec: spec) }
    }
}

/// Each fault kind through the real client over a real socket.
@Suite struct FaultInjectionTests {
    private func apiFailure(_ harness: SandboxHarness) async -> (Int, String, String)? {
        let outcome = await failure { () throws(CustomerRequestFailure) in try await harness.client().create(SandboxHarness.params()) }
        guard case .api(let status, let body)? = outcome, let first = body.errors.first else { return nil }
        return (status, first.category, first.code)
    }

    @Test(arguments: [
        ("500", 500, "API_ERROR", "INTERNAL_SERVER_ERROR"), ("503", 503, "API_ERROR", "SERVICE_UNAVAILABLE"),
        ("504", 504, "API_ERROR", "GATEWAY_TIMEOUT"), ("429", 429, "RATE_LIMIT_ERROR", "RATE_LIMITED"),
    ])
    func statusFaultsAnswerInTheProvidersErrorShape(kind: String, status: Int, category: String, code: String) async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /customer-request/v1/requests \(kind)")
            let answer = await apiFailure(harness)
            #expect(answer?.0 == status)
            #expect(answer?.1 == category)
            #expect(answer?.2 == code)
            #expect(try await harness.sandbox.cashAppSandbox?.requests.requestCount == 0)
            // Used up: the next create goes through.
            _ = try await harness.client().create(SandboxHarness.params())
        }
    }

    @Test func aCountAppliesToThatManyRequests() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /customer-request 500*2")
            #expect(await apiFailure(harness)?.0 == 500)
            #expect(await apiFailure(harness)?.0 == 500)
            #expect(await apiFailure(harness) == nil)
        }
    }

    @Test func aLostResponseIsRetriedWithTheSameKeyAndCreatesOnce() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /customer-request/v1/requests reset")
            let created = try await harness.client().create(SandboxHarness.params())
            #expect(try await harness.sandbox.cashAppSandbox?.requests.requestCount == 1)
            let attempts = harness.log.entries.map { "\($0.attempt):\($0.status.map(String.init) ?? "none")" }
            #expect(attempts == ["1:none", "2:201"])
            #expect(harness.log.entries[0].failure != nil)
            #expect(try await harness.client().retrieve(id: created.id).id == created.id)
        }
    }

    @Test func aMalformedBodyIsRetried() async throws {
        try await SandboxHarness.with { harness in
            let created = try await harness.client().create(SandboxHarness.params())
            try await harness.inject("GET /customer-request/v1/requests malformed")
            #expect(try await harness.client().retrieve(id: created.id).id == created.id)
            #expect(harness.log.entries.suffix(2).map(\.attempt) == [1, 2])
        }
    }

    @Test func noAnswerInTimeIsRetried() async throws {
        // The timeout leaves the retry seconds to answer even when the whole suite
        // is starving a small CI machine; the fault holds the first attempt far longer.
        try await SandboxHarness.with(faultDelaySeconds: 12) { harness in
            try await harness.inject("POST /customer-request/v1/requests timeout")
            _ = try await harness.client(timeout: .seconds(4)).create(SandboxHarness.params())
            #expect(harness.log.entries.map(\.attempt) == [1, 2])
            #expect(harness.log.entries[0].failure?.contains("no response within") == true)
            // A timed-out request was never processed, so only the retry created one.
            #expect(try await harness.sandbox.cashAppSandbox?.requests.requestCount == 1)
        }
    }

    @Test func transportFaultsThatOutlastTheRetriesFail() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /customer-request/v1/requests reset*5")
            // Resets come at once; the long timeout only keeps a starved CI machine's slow
            // answer from reading as "no response" instead of the connection lost.
            let outcome = await failure { () throws(CustomerRequestFailure) in
                try await harness.client(timeout: .seconds(30)).create(SandboxHarness.params())
            }
            guard case .transport(.connectionLost)? = outcome else { Issue.record("got \(String(describing: outcome))"); return }
            #expect(harness.log.entries.count == 3)
            #expect(try await harness.sandbox.cashAppSandbox?.requests.requestCount == 1)
        }
    }

    @Test func slowAnswersStillArrive() async throws {
        try await SandboxHarness.with(faultDelaySeconds: 0.3) { harness in
            try await harness.inject("POST / slow")
            // A starved CI machine must not time the slow answer out and retry it.
            _ = try await harness.client(timeout: .seconds(30)).create(SandboxHarness.params())
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
            #expect(try await harness.sandbox.faults.pending.isEmpty)
        }
    }
}

/// Who each fault belongs to: a checkout's run id, or `sandbox` for standing faults.
@Suite struct FaultOwnerTests {
    private struct Listed: Decodable, Equatable {
        let method: String
        let pathPrefix: String
        let kind: String
        let remaining: Int
        let owner: String
        enum CodingKeys: String, CodingKey { case method, kind, remaining, owner, pathPrefix = "path_prefix" }
    }

    private struct Listing: Decodable { let faults: [Listed] }
    private struct Removal: Decodable { let removed: Int; let faults: [Listed] }

    private func post(_ harness: SandboxHarness, _ body: String) async throws -> ProviderResponse {
        try await harness.raw(method: "POST", path: "/sandbox/faults", body: body)
    }

    private func listing(_ harness: SandboxHarness) async throws -> [Listed] {
        let listed = try await harness.raw(method: "GET", path: "/sandbox/faults", body: nil)
        #expect(listed.status == 200)
        return try JSONDecoder().decode(Listing.self, from: listed.body).faults
    }

    @Test func theListingNamesEachFaultsOwner() async throws {
        try await SandboxHarness.with { harness in
            let owned = try await post(harness, #"{"fault": "GET /customer-request 503*2", "owner": "run-1"}"#)
            let unowned = try await post(harness, #"{"fault": "POST /v2/checkouts reset"}"#)
            let nullOwner = try await post(harness, #"{"fault": "* / slow", "owner": null}"#)
            #expect([owned.status, unowned.status, nullOwner.status] == [Int](repeating: 201, count: 3))
            let listed = try await listing(harness)
            #expect(listed == [
                Listed(method: "GET", pathPrefix: "/customer-request", kind: "503", remaining: 2, owner: "run-1"),
                Listed(method: "POST", pathPrefix: "/v2/checkouts", kind: "reset", remaining: 1, owner: "sandbox"),
                Listed(method: "*", pathPrefix: "/", kind: "slow", remaining: 1, owner: "sandbox"),
            ])
            #expect(try await harness.sandbox.faults.pendingWithOwners.map(\.owner) == ["run-1", "sandbox", "sandbox"])
        }
    }

    @Test func faultsAddedInProcessWithoutAnOwnerAreTheSandboxes() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /customer-request 500")
            #expect(try await listing(harness).map(\.owner) == [FaultPlan.sandboxOwner])
        }
    }

    @Test func deletingByOwnerRemovesOnlyThatOwnersFaults() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /customer-request 503*3", owner: "run-1")
            try await harness.inject("GET /customer-request 500", owner: "run-1")
            try await harness.inject("GET /customer-request reset", owner: "run-2")
            try await harness.inject("POST /v2/ 429")
            let answer = try await harness.raw(method: "DELETE", path: "/sandbox/faults?owner=run-1", body: nil)
            #expect(answer.status == 200)
            let removal = try JSONDecoder().decode(Removal.self, from: answer.body)
            #expect(removal.removed == 2)
            #expect(removal.faults.map(\.owner) == ["run-2", "sandbox"])
            #expect(try await listing(harness).map(\.owner) == ["run-2", "sandbox"])
            // Without an owner, everything goes.
            let cleared = try await harness.raw(method: "DELETE", path: "/sandbox/faults", body: nil)
            #expect(try JSONDecoder().decode(Removal.self, from: cleared.body).removed == 2)
            #expect(try await harness.sandbox.faults.pendingWithOwners.isEmpty)
        }
    }

    @Test(arguments: [
        #""owner": """#, #""owner": "run 1""#, #""owner": "run/1""#, #""owner": "rün""#, #""owner": 42"#,
        #""owner": ""# + String(repeating: "a", count: 65) + #"""#,
    ])
    func aBadOwnerIsRejectedNamingTheField(owner: String) async throws {
        try await SandboxHarness.with { harness in
            let answer = try await post(harness, #"{"fault": "GET /customer-request 503", "#+owner+"}")
            #expect(answer.status == 400)
            let error = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: String])["error"]
            #expect(error?.hasPrefix("owner ") == true, "\(error ?? "")")
            #expect(error?.contains("1 to 64 characters") == true)
            #expect(try await harness.sandbox.faults.pendingWithOwners.isEmpty)
        }
    }

    @Test func deletingWithABadOwnerIsRejected() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("GET /customer-request 503")
            let answer = try await harness.raw(method: "DELETE", path: "/sandbox/faults?owner=", body: nil)
            #expect(answer.status == 400)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("owner"))
            #expect(try await harness.sandbox.faults.pending.count == 1)
        }
    }

    @Test func theControlClientInjectsAndRemovesByOwner() async throws {
        try await SandboxHarness.with { harness in
            let control = harness.customer
            try await control.inject(fault: "GET /customer-request 503*50", owner: "run.A_1-b")
            try await control.inject(fault: "POST /customer-request 500", owner: "run.A_1-b")
            try await control.inject(fault: "POST /v2/checkouts reset")
            #expect(try await harness.sandbox.faults.pendingWithOwners.map(\.owner) == ["run.A_1-b", "run.A_1-b", "sandbox"])
            #expect(try await control.removeFaults(owner: "run.A_1-b") == 2)
            #expect(try await control.removeFaults(owner: "run.A_1-b") == 0)
            #expect(try await harness.sandbox.faults.pendingWithOwners == [
                PlannedFault(rule: FaultRule(method: "POST", pathPrefix: "/v2/checkouts", kind: .reset), owner: "sandbox"),
            ])
        }
    }

    @Test func theControlClientReportsARejectedOwner() async throws {
        try await SandboxHarness.with { harness in
            let injected = await failure { () throws(SandboxControlFailure) in
                try await harness.customer.inject(fault: "GET /x 503", owner: "not ok")
            }
            guard case .api(400, let body)? = injected else { Issue.record("got \(String(describing: injected))"); return }
            #expect(body.errors.first?.detail?.contains("owner") == true)
            // Encoded into the query, so '&' and '=' cannot smuggle in other parameters.
            let removed = await failure { () throws(SandboxControlFailure) in
                try await harness.customer.removeFaults(owner: "x&owner=sandbox")
            }
            guard case .api(400, _)? = removed else { Issue.record("got \(String(describing: removed))"); return }
        }
    }

    @Test func usedUpFaultsAreNotCountedAsRemoved() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /customer-request 500", owner: "run-1")
            try await harness.inject("POST / 504")
            // The first matching fault applies, of the request's run or the sandbox's.
            let first = await failure { () throws(CustomerRequestFailure) in try await harness.client(run: "run-1").create(SandboxHarness.params()) }
            guard case .api(500, _)? = first else { Issue.record("got \(String(describing: first))"); return }
            let plan = harness.sandbox.faults
            #expect(try await plan.remove(owner: "run-1") == 0)
            #expect(try await plan.pendingWithOwners.map(\.owner) == [FaultPlan.sandboxOwner])
            #expect(try await plan.clear() == 1)
        }
    }

    @Test func aRunsFaultsHitOnlyThatRunsRequests() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /customer-request 500*5", owner: "run-a")
            // Another checkout on the same sandbox, and a request naming no run, are not hit.
            _ = try await harness.client(run: "run-b").create(SandboxHarness.params())
            _ = try await harness.client().create(SandboxHarness.params())
            let own = await failure { () throws(CustomerRequestFailure) in try await harness.client(run: "run-a").create(SandboxHarness.params()) }
            guard case .api(500, _)? = own else { Issue.record("got \(String(describing: own))"); return }
            // The sandbox's own faults hit everyone.
            try await harness.inject("POST /customer-request 503")
            let standing = await failure { () throws(CustomerRequestFailure) in try await harness.client(run: "run-b").create(SandboxHarness.params()) }
            guard case .api(503, _)? = standing else { Issue.record("got \(String(describing: standing))"); return }
        }
    }
}
