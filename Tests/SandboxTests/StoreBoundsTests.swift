import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// What the sandbox keeps is bounded: requests and checkouts by age and count, faults by count.
/// A forgotten id answers as an unknown one does, 404 in the provider's shape.
@Suite struct StoreBoundsTests {
    private func limits(maxStoredRequests: Int = 5_000, retention: Double = 86_400, maxFaults: Int = 100) -> SandboxLimits {
        var limits = SandboxLimits()
        limits.maxStoredRequests = maxStoredRequests
        limits.requestRetention = retention
        limits.maxFaults = maxFaults
        return limits
    }

    private func notFound(_ harness: SandboxHarness, _ id: String) async -> Bool {
        let outcome = await failure { () throws(CustomerRequestFailure) in try await harness.client().retrieve(id: id) }
        guard case .api(404, let body)? = outcome else { return false }
        return body.errors.first?.code == "NOT_FOUND" && body.errors.first?.field == "id"
    }

    @Test func pastTheCountTheOldestRequestIsForgotten() async throws {
        try await SandboxHarness.with(limits: limits(maxStoredRequests: 3)) { harness in
            var ids: [String] = []
            for _ in 0..<4 { ids.append(try await harness.client().create(SandboxHarness.params()).id) }
            #expect(try await harness.sandbox.cashAppSandbox?.requests.requestCount == 3)
            #expect(await notFound(harness, ids[0]))
            for id in ids.dropFirst() { #expect(try await harness.client().retrieve(id: id).id == id) }
        }
    }

    @Test func pastTheRetentionARequestIsForgottenWithItsIdempotencyKey() async throws {
        try await SandboxHarness.with(requestLifetime: 60, limits: limits(retention: 120)) { harness in
            let key = UUID().uuidString
            let first = try await harness.client().create(SandboxHarness.params(), idempotencyKey: key)
            harness.clock.advance(by: 119)
            #expect(try await harness.client().retrieve(id: first.id).status == .DECLINED)
            harness.clock.advance(by: 1)
            #expect(await notFound(harness, first.id))
            #expect(try await harness.sandbox.cashAppSandbox?.requests.requestCount == 0)
            // The key is free again: the same create makes a new request.
            let second = try await harness.client().create(SandboxHarness.params(), idempotencyKey: key)
            #expect(second.id != first.id)
        }
    }

    @Test func afterpayCheckoutsAreForgottenByCountAndAge() async throws {
        try await SandboxHarness.with(limits: limits(maxStoredRequests: 2, retention: 600)) { harness in
            var tokens: [String] = []
            for _ in 0..<3 {
                let response = try await harness.afterpay("POST", "/v2/checkouts", json: AfterpayAPITests.checkoutJSON())
                tokens.append(try JSONDecoder().decode(AfterpayCheckoutResponse.self, from: response.body).token)
            }
            #expect(try await harness.sandbox.afterpay.count == 2)
            let forgotten = try await harness.afterpay("POST", "/v2/payments/sign-payment", json: #"{"token": "\#(tokens[0])"}"#)
            #expect(forgotten.status == 402)
            #expect(try JSONDecoder().decode(AfterpayError.self, from: forgotten.body).errorCode == "invalid_token")
            harness.clock.advance(by: 600)
            let aged = try await harness.afterpay("POST", "/v2/payments/sign-payment", json: #"{"token": "\#(tokens[2])"}"#)
            #expect(aged.status == 402)
            #expect(try await harness.sandbox.afterpay.count == 0)
        }
    }

    /// Adds racing (as on several instances of one sandbox) keep the first `limit` and refuse the rest.
    @Test func racingAddsNeverPassTheLimit() async throws {
        let plan = FaultPlan(limit: 5)
        let added = try await withThrowingTaskGroup(of: Bool.self) { group in
            for number in 0..<40 {
                group.addTask {
                    do {
                        try await plan.add(try FaultRule(spec: "GET /race/\(number) 503"))
                        return true
                    } catch is FaultPlanFull {
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(added == 5)
        #expect(try await plan.pending.count == 5)
    }

    @Test func theFaultPlanHoldsAtMostItsLimitAndUsedUpRulesMakeRoom() async throws {
        try await SandboxHarness.with(limits: limits(maxFaults: 2)) { harness in
            try await harness.inject("GET /customer-request 503")
            try await harness.inject("POST /v2/ 500")
            await #expect(throws: FaultPlanFull.self) { try await harness.inject("GET /x 429") }
            let over = try await harness.raw(method: "POST", path: "/sandbox/faults", body: #"{"fault": "GET /x 429"}"#)
            #expect(over.status == 409)
            #expect(String(decoding: over.body, as: UTF8.self).contains("2 faults"))
            // Using a rule up frees its place.
            _ = await failure { () throws(CustomerRequestFailure) in try await harness.client().retrieve(id: "GRR_x") }
            #expect(try await harness.sandbox.faults.pending.count == 1)
            let added = try await harness.raw(method: "POST", path: "/sandbox/faults", body: #"{"fault": "GET /x 429"}"#)
            #expect(added.status == 201)
        }
    }
}
