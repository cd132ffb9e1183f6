import Foundation
import ProviderWire
import Sandbox
import Testing

/// Stored Cash App Pay methods: stored from an EXTENDED grant, listed (`/paymentMethods` with the
/// $cashtag, `GET /storedPaymentMethods` as Adyen's StoredPaymentMethodResource), paid with,
/// deleted by the merchant or disabled by the shopper.
@Suite struct AdyenStoredMethodTests {
    typealias Fixture = AdyenTestSandbox

    /// Pays 7.00 storing the on-file grant for shopper-1: the stored method's id.
    private func store(_ sandbox: Fixture) async throws -> String {
        let request = try await sandbox.approvedRequest([Fixture.oneTime(700), Fixture.onFile])
        let grants = request["grants"] as! [[String: Any]]
        let oneTime = grants.first { $0["type"] as? String == "ONE_TIME" }!["id"] as! String
        let extended = grants.first { $0["type"] as? String == "EXTENDED" }!["id"] as! String
        let profile = request["customer_profile"] as! [String: Any]
        let body = Fixture.payment(
            700, ["grantId": oneTime, "onFileGrantId": extended, "customerId": profile["id"]!, "cashtag": profile["cashtag"]!],
            extra: ["shopperReference": "shopper-1", "storePaymentMethod": true, "recurringProcessingModel": "CardOnFile"])
        let paid = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments", body))
        #expect(paid["resultCode"] as? String == "Authorised")
        let data = try #require(paid["additionalData"] as? [String: String])
        #expect(data["tokenization.store.operationType"] == "created")
        #expect(data["tokenization.shopperReference"] == "shopper-1")
        #expect(data["cashapp.cashtag"] == SandboxMagic.customerCashtag)
        let id = try #require(data["tokenization.storedPaymentMethodId"])
        #expect(data["recurring.recurringDetailReference"] == id)
        #expect(id.count == 16)
        return id
    }

    private func listed(_ sandbox: Fixture) async throws -> [[String: Any]] {
        let response = try await sandbox.adyen("GET", "/v71/storedPaymentMethods?shopperReference=shopper-1&merchantAccount=\(Fixture.merchant)")
        #expect(response.status == 200)
        return try Fixture.object(response)["storedPaymentMethods"] as? [[String: Any]] ?? []
    }

    @Test func storeListPayDeleteGone() async throws {
        try await Fixture.with { sandbox in
            let receiver = try AdyenWebhookReceiver()
            try await sandbox.registerReceiver(receiver)
            let id = try await store(sandbox)
            let methods = try await listed(sandbox)
            #expect(methods.count == 1)
            #expect(methods.first?["id"] as? String == id && methods.first?["type"] as? String == "cashapp")
            // Adyen's StoredPaymentMethodResource has no $cashtag and no shopper interactions.
            #expect(methods.first?["cashtag"] == nil && methods.first?["supportedShopperInteractions"] == nil)
            #expect(methods.first?["supportedRecurringProcessingModels"] as? [String] == ["CardOnFile"])
            let offered = try Fixture.object(try await sandbox.adyen(
                "POST", "/v71/paymentMethods", ["merchantAccount": Fixture.merchant, "shopperReference": "shopper-1"]))
            let offeredMethod = (offered["storedPaymentMethods"] as? [[String: Any]])?.first
            #expect(offeredMethod?["id"] as? String == id && offeredMethod?["cashtag"] as? String == SandboxMagic.customerCashtag)
            #expect(offeredMethod?["supportedShopperInteractions"] as? [String] == ["ContAuth"])

            let paid = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments", Fixture.payment(
                1999, ["storedPaymentMethodId": id], reference: "order-2",
                extra: ["shopperReference": "shopper-1", "shopperInteraction": "ContAuth", "recurringProcessingModel": "CardOnFile"])))
            #expect(paid["resultCode"] as? String == "Authorised")

            let created = await receiver.wait { $0.contains { $0.json?["type"] as? String == "recurring.token.created" } }
            let token = try #require(created.first { $0.json?["type"] as? String == "recurring.token.created" })
            #expect((token.json?["data"] as? [String: Any])?["storedPaymentMethodId"] as? String == id)
            #expect(token.headers["hmacsignature"] != nil)

            let path = "/v71/storedPaymentMethods/\(id)?shopperReference=shopper-1&merchantAccount=\(Fixture.merchant)"
            #expect(try await sandbox.adyen("DELETE", path).status == 204)
            #expect(try await listed(sandbox).isEmpty)
            #expect(try await sandbox.adyen("DELETE", path).status == 422)
        }
    }

    @Test func theShopperDisablingAMethodSendsATokenWebhookAndRemovesIt() async throws {
        try await Fixture.with { sandbox in
            let receiver = try AdyenWebhookReceiver()
            try await sandbox.registerReceiver(receiver)
            let id = try await store(sandbox)
            #expect(try await sandbox.control("POST", "/sandbox/adyen/stored-payment-methods/\(id)/disable").status == 200)
            let received = await receiver.wait { $0.contains { $0.json?["type"] as? String == "recurring.token.disabled" } }
            let disabled = try #require(received.first { $0.json?["type"] as? String == "recurring.token.disabled" })
            let data = try #require(disabled.json?["data"] as? [String: Any])
            #expect(data["storedPaymentMethodId"] as? String == id && data["shopperReference"] as? String == "shopper-1")
            #expect(data["operation"] == nil)
            #expect(disabled.json?["environment"] as? String == "test")
            #expect(try await listed(sandbox).isEmpty)
            let refused = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments", Fixture.payment(
                500, ["storedPaymentMethodId": id], extra: ["shopperReference": "shopper-1"])))
            #expect(refused["resultCode"] as? String == "Refused")
            #expect(try await sandbox.control("POST", "/sandbox/adyen/stored-payment-methods/NOPE/disable").status == 404)
        }
    }
}
