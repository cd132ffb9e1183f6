import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// The Customer Request API through the real client over a real socket.
@Suite struct CustomerRequestAPITests {
    @Test func createRetrieveAndUpdate() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let created = try await client.create(SandboxHarness.params())
            #expect(created.id.hasPrefix("GRR_"))
            #expect(created.status == .PENDING)
            #expect(created.oneTimeAmount?.minorUnits == 4505)
            #expect(created.referenceID == "order-1")
            #expect(created.metadata == ["cartId": "c-1"])
            #expect(created.requesterProfile?.name != nil)
            #expect(created.origin?.type == "DIRECT")
            #expect(created.expiresAt == created.createdAt.addingTimeInterval(3600))
            let triggers = try #require(created.authFlowTriggers)
            #expect(triggers.mobileURL.hasPrefix(harness.baseURL + "/sandbox/customer-requests/\(created.id)/authorize"))

            let fetched = try await client.retrieve(id: created.id)
            #expect(fetched == created)

            let updated = try await client.update(id: created.id, with: .init(
                actions: [.oneTimePayment(scopeID: SandboxHarness.brandID, amount: 5505, currency: "USD")],
                referenceID: "order-2", metadata: nil))
            #expect(updated.oneTimeAmount?.minorUnits == 5505)
            #expect(updated.referenceID == "order-2")
            #expect(updated.metadata == nil)
            #expect(try await client.retrieve(id: created.id).oneTimeAmount?.minorUnits == 5505)
        }
    }

    @Test func approvalGivesGrantsAndTheCustomersCashtag() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let created = try await client.create(SandboxHarness.params())
            let outcome = try await harness.customer.customer(.approve, requestID: created.id)
            #expect(outcome.request.status == .APPROVED)
            let approved = try await client.retrieve(id: created.id)
            #expect(approved.status == .APPROVED)
            #expect(approved.authFlowTriggers == nil)
            #expect(approved.customerProfile?.cashtag.hasPrefix("$") == true)
            let grant = try #require(approved.grants?.first)
            #expect(grant.id.hasPrefix("GRG_"))
            #expect(grant.type == .ONE_TIME)
            #expect(grant.status == .ACTIVE)
            #expect(grant.customerID == approved.customerProfile?.id)
            #expect(grant.action.amount == 4505)
        }
    }

    @Test func declineAndMagicDeclineAmounts() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let declined = try await client.create(SandboxHarness.params())
            _ = try await harness.customer.customer(.decline, requestID: declined.id)
            #expect(try await client.retrieve(id: declined.id).status == .DECLINED)

            for (amount, reason) in [(7770, "COMPLIANCE"), (7771, "INSUFFICIENT_FUNDS"), (7775, "TOO_SMALL")] {
                let request = try await client.create(SandboxHarness.params(amount: amount))
                let outcome = try await harness.customer.customer(.approve, requestID: request.id)
                #expect(outcome.request.status == .DECLINED)
                #expect(outcome.sandboxDeclineReason == reason)
                #expect(try await client.retrieve(id: request.id).grants == nil)
            }
        }
    }

    @Test func aDecidedRequestCannotBeUpdatedOrActedOnAgain() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let request = try await client.create(SandboxHarness.params())
            _ = try await harness.customer.customer(.approve, requestID: request.id)
            await #expect(throws: CustomerRequestFailure.self) {
                try await client.update(id: request.id, with: .init(actions: nil))
            }
            let update = await failure { () throws(CustomerRequestFailure) in
                try await client.update(id: request.id, with: .init(actions: nil))
            }
            guard case .api(400, let body)? = update else { Issue.record("unexpected \(String(describing: update))"); return }
            #expect(body.errors.first?.code == "INVALID_STATE_TRANSITION")
            let decline = await failure { () throws(SandboxControlFailure) in
                try await harness.customer.customer(.decline, requestID: request.id)
            }
            guard case .api(409, _)? = decline else { Issue.record("unexpected \(String(describing: decline))"); return }
        }
    }

    @Test func idempotencyReplaysTheSameRequestAndRejectsADifferentBody() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let first = try await client.create(SandboxHarness.params(), idempotencyKey: "key-1")
            let again = try await client.create(SandboxHarness.params(), idempotencyKey: "key-1")
            #expect(again.id == first.id)
            let reused = await failure { () throws(CustomerRequestFailure) in
                try await client.create(SandboxHarness.params(amount: 999), idempotencyKey: "key-1")
            }
            guard case .api(_, let body)? = reused else { Issue.record("unexpected \(String(describing: reused))"); return }
            #expect(body.errors.first?.code == "IDEMPOTENCY_KEY_REUSED")
            #expect(body.errors.first?.category == "INVALID_REQUEST_ERROR")
            let other = try await client.create(SandboxHarness.params())
            #expect(other.id != first.id)
        }
    }

    @Test func triggersRotateEveryThirtySecondsAndRequestsExpireAfterAnHour() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let created = try await client.create(SandboxHarness.params())
            let first = try #require(created.authFlowTriggers)
            #expect(first.refreshesAt == created.createdAt.addingTimeInterval(30))

            harness.clock.advance(by: 29)
            #expect(try await client.retrieve(id: created.id).authFlowTriggers == first)

            harness.clock.advance(by: 2)
            let second = try #require(try await client.retrieve(id: created.id).authFlowTriggers)
            #expect(second.refreshesAt == created.createdAt.addingTimeInterval(60))
            #expect(second.mobileURL != first.mobileURL)
            #expect(second.qrCodeSVGURL != first.qrCodeSVGURL)

            harness.clock.advance(by: 3600)
            let expired = try await client.retrieve(id: created.id)
            #expect(expired.status == .DECLINED)
            #expect(expired.authFlowTriggers == nil)
            #expect(expired.updatedAt == expired.expiresAt)
        }
    }

    @Test func theCustomerPageWorksInABrowser() async throws {
        try await SandboxHarness.with { harness in
            let created = try await harness.client().create(SandboxHarness.params())
            let url = try #require(created.authFlowTriggers?.mobileURL)
            let page = try await harness.http().send(ProviderRequest(method: "GET", url: url), provider: "test")
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200)
            #expect(html.contains("$45.05"))
            #expect(html.contains("/sandbox/customer-requests/\(created.id)/approve"))
            let form = try await harness.http().send(ProviderRequest(
                method: "POST", url: harness.baseURL + "/sandbox/customer-requests/\(created.id)/approve",
                headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")]), provider: "test")
            #expect(form.status == 303)
            #expect(try await harness.client().retrieve(id: created.id).status == .APPROVED)
        }
    }
}
