import Foundation
import ProviderWire
import Sandbox
import Testing

/// Adyen's Checkout API over a real socket: result codes by magic amount, grant checks,
/// idempotency, error shapes and version prefixes.
@Suite struct AdyenAPITests {
    typealias Fixture = AdyenTestSandbox

    @Test(arguments: [(1234, "Authorised"), (7001, "Refused"), (7002, "Error"), (7003, "Cancelled"), (7004, "Received"), (7005, "Received")])
    func magicAmountsDecideTheResult(value: Int, resultCode: String) async throws {
        try await Fixture.with { sandbox in
            let payment = try await sandbox.pay(value)
            #expect(payment["resultCode"] as? String == resultCode)
            let psp = try #require(payment["pspReference"] as? String)
            #expect(psp.count == 16 && psp.allSatisfy { $0.isNumber || ($0.isUppercase && $0.isASCII) })
            #expect((payment["amount"] as? [String: Any])?["value"] as? Int == value)
            #expect(payment["merchantReference"] as? String == "order-1")
            if value == 7001 { #expect(payment["refusalReason"] as? String == "Refused") }
        }
    }

    @Test(arguments: [(7004, "Authorised"), (7005, "Refused")])
    func receivedPaymentsAreDecidedByWebhookAndDetails(value: Int, final: String) async throws {
        try await Fixture.with { sandbox in
            let receiver = try AdyenWebhookReceiver()
            try await sandbox.registerReceiver(receiver)
            let payment = try await sandbox.pay(value)
            let psp = try #require(payment["pspReference"] as? String)
            let items = await receiver.wait { $0.contains { Self.item($0)?["pspReference"] as? String == psp } }
            let item = try #require(items.compactMap(Self.item).first { $0["pspReference"] as? String == psp })
            #expect(item["eventCode"] as? String == "AUTHORISATION")
            #expect(item["success"] as? String == (final == "Authorised" ? "true" : "false"))
            let details = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments/details", ["details": ["pspReference": psp]]))
            #expect(details["resultCode"] as? String == final)
        }
    }

    @Test func grantsMustBeApprovedOfThisAmountAndUnused() async throws {
        try await Fixture.with { sandbox in
            let pending = try await sandbox.approvedRequest([Fixture.oneTime(4505)], approve: false)
            let pendingID = pending["id"] as! String
            // A pending request has no grants: a made-up id is no grant of this sandbox either.
            let unknown = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments", Fixture.payment(4505, ["grantId": "GRG_nope" + pendingID.suffix(4)])))
            #expect(unknown["resultCode"] as? String == "Refused")
            #expect((unknown["refusalReason"] as? String)?.contains("is not an approved grant of this sandbox") == true)

            let grant = try await sandbox.grant(4505)
            let wrong = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments", Fixture.payment(1200, ["grantId": grant])))
            #expect(wrong["resultCode"] as? String == "Refused")
            #expect(wrong["refusalReason"] as? String == "grant is for 45.05 USD, payment is 12.00 USD")

            let first = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments", Fixture.payment(4505, ["grantId": grant])))
            #expect(first["resultCode"] as? String == "Authorised")
            let reused = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments", Fixture.payment(4505, ["grantId": grant], reference: "order-2")))
            #expect(reused["resultCode"] as? String == "Refused")
            #expect((reused["refusalReason"] as? String)?.hasPrefix("grant already used") == true)
            let rows = try await sandbox.ledger()["adyen_payments"] as? [[String: Any]]
            #expect(rows?.count == 1)
        }
    }

    @Test func theSameIdempotencyKeyChargesOnce() async throws {
        try await Fixture.with { sandbox in
            let grant = try await sandbox.grant(2500)
            let body = Fixture.payment(2500, ["grantId": grant])
            let first = try await sandbox.adyen("POST", "/v71/payments", body, idempotencyKey: "key-1")
            let again = try await sandbox.adyen("POST", "/v71/payments", body, idempotencyKey: "key-1")
            #expect(first.status == 200 && again.status == 200)
            #expect(try Fixture.object(first)["pspReference"] as? String == (try Fixture.object(again)["pspReference"] as? String))
            #expect(try Fixture.object(again)["resultCode"] as? String == "Authorised")
            let other = try await sandbox.adyen("POST", "/v71/payments", Fixture.payment(2500, ["grantId": grant], reference: "other"), idempotencyKey: "key-1")
            #expect(other.status == 422)
            #expect(try Fixture.object(other)["errorCode"] as? String == "704")
            let ledger = try await sandbox.ledger()
            let rows = try #require(ledger["adyen_payments"] as? [[String: Any]])
            #expect(rows.count == 1)
            #expect(rows.first?["idempotency_key"] as? String == "key-1")
            #expect(rows.first?["psp_reference"] as? String == (try Fixture.object(first)["pspReference"] as? String))
            #expect(ledger["captures"] is [Any], "Afterpay's captures section is kept")
        }
    }

    @Test func errorsComeInAdyensShape() async throws {
        try await Fixture.with { sandbox in
            let body = Fixture.payment(100, ["grantId": "GRG_x"])
            let unauthorized = try await sandbox.adyen("POST", "/v71/payments", body, apiKey: "nope")
            #expect(unauthorized.status == 401)
            let denied = try Fixture.object(unauthorized)
            #expect(denied["errorCode"] as? String == "000" && denied["errorType"] as? String == "security")
            #expect(denied["message"] as? String == "HTTP Status Response - Unauthorized" && denied["status"] as? Int == 401)
            #expect(try await sandbox.adyen("POST", "/v71/payments", body, apiKey: nil).status == 401)

            var unknownMerchant = body
            unknownMerchant["merchantAccount"] = "UnknownMerchant"
            let forbidden = try await sandbox.adyen("POST", "/v71/payments", unknownMerchant)
            #expect(forbidden.status == 403)
            #expect(try Fixture.object(forbidden)["errorCode"] as? String == "901")

            var noReturn = body
            noReturn.removeValue(forKey: "returnUrl")
            let missing = try await sandbox.adyen("POST", "/v71/payments", noReturn)
            #expect(missing.status == 422)
            let missingBody = try Fixture.object(missing)
            #expect(missingBody["errorCode"] as? String == "14_030" && missingBody["message"] as? String == "Return URL is missing.")
            #expect(missingBody["errorType"] as? String == "validation")

            let malformed = try await sandbox.adyen("POST", "/v71/payments", rawBody: "{amount")
            #expect(malformed.status == 400)
            #expect(try Fixture.object(malformed)["errorCode"] as? String == "702")

            let wrongMethod = try await sandbox.adyen("GET", "/v71/payments")
            #expect(wrongMethod.status == 405)
            #expect(try Fixture.object(wrongMethod)["status"] as? Int == 405)

            let unknownPayment = try await sandbox.adyen("POST", "/v71/payments/ABCDEFGHIJKLMNOP/captures", ["merchantAccount": Fixture.merchant, "amount": ["currency": "USD", "value": 100]])
            #expect(unknownPayment.status == 422)
        }
    }

    @Test func anyVersionPrefixWorksAndAfterpayKeepsV2() async throws {
        try await Fixture.with { sandbox in
            for version in ["v71", "v72", "v68"] {
                let methods = try await sandbox.adyen("POST", "/\(version)/paymentMethods", ["merchantAccount": Fixture.merchant])
                #expect(methods.status == 200, "\(version)")
                let cashApp = try #require((try Fixture.object(methods)["paymentMethods"] as? [[String: Any]])?.first)
                let configuration = cashApp["configuration"] as? [String: String]
                #expect(configuration?["clientId"] == AdyenCashAppConfiguration.clientID)
                #expect(configuration?["scopeId"] == AdyenCashAppConfiguration.scopeID)
            }
            #expect(try await sandbox.adyen("POST", "/x71/paymentMethods", ["merchantAccount": Fixture.merchant]).status == 404)
            #expect(try await sandbox.adyen("GET", "/v71/paymentMethods").status == 405)
            // Afterpay's /v2/ is still Afterpay's: its error shape, not Adyen's.
            let afterpay = try await sandbox.adyen("POST", "/v2/payments/capture", ["token": "x"])
            #expect(afterpay.status == 401)
            #expect(try Fixture.object(afterpay)["errorCode"] as? String == "unauthorized")
        }
    }

    @Test func capturesCancelsAndRefundsAnswerReceivedThenWebhooks() async throws {
        try await Fixture.with { sandbox in
            let receiver = try AdyenWebhookReceiver()
            try await sandbox.registerReceiver(receiver)
            let paid = try await sandbox.pay(3000)
            let psp = try #require(paid["pspReference"] as? String)
            let modification = ["merchantAccount": Fixture.merchant, "amount": ["currency": "USD", "value": 3000]] as [String: Any]
            let tooMuch = try await sandbox.adyen("POST", "/v72/payments/\(psp)/captures", ["merchantAccount": Fixture.merchant, "amount": ["currency": "USD", "value": 3001]])
            #expect(tooMuch.status == 422)
            let capture = try await sandbox.adyen("POST", "/v72/payments/\(psp)/captures", modification)
            #expect(capture.status == 201)
            let captured = try Fixture.object(capture)
            #expect(captured["status"] as? String == "received" && captured["paymentPspReference"] as? String == psp)
            let refund = try await sandbox.adyen("POST", "/v72/payments/\(psp)/refunds", modification)
            #expect(refund.status == 201)
            let other = try #require(try await sandbox.pay(1000)["pspReference"] as? String)
            let cancel = try await sandbox.adyen("POST", "/v72/payments/\(other)/cancels", ["merchantAccount": Fixture.merchant])
            #expect(cancel.status == 201)
            let items = await receiver.wait { $0.compactMap(Self.item).filter { $0["originalReference"] != nil }.count >= 3 }
            let codes = Set(items.compactMap(Self.item).filter { $0["originalReference"] != nil }.compactMap { $0["eventCode"] as? String })
            #expect(codes == ["CAPTURE", "REFUND", "CANCELLATION"])
            let captureRows = try await sandbox.ledger()["adyen_captures"] as? [[String: Any]]
            #expect(captureRows?.count == 1)
        }
    }

    /// Reversals cancel what is not captured and refund what is (CANCEL_OR_REFUND with
    /// `modification.action`); amount updates are received and their AUTHORISATION_ADJUSTMENT
    /// fails (no payment here is pre-authorised).
    @Test func reversalsAndAmountUpdatesAnswerReceivedThenWebhooks() async throws {
        try await Fixture.with { sandbox in
            let receiver = try AdyenWebhookReceiver()
            try await sandbox.registerReceiver(receiver)
            let merchant = ["merchantAccount": Fixture.merchant]
            let uncaptured = try #require(try await sandbox.pay(1500)["pspReference"] as? String)
            let captured = try #require(try await sandbox.pay(2500)["pspReference"] as? String)
            let capture = try await sandbox.adyen(
                "POST", "/v71/payments/\(captured)/captures", ["merchantAccount": Fixture.merchant, "amount": ["currency": "USD", "value": 2500]])
            #expect(capture.status == 201)
            for psp in [uncaptured, captured] {
                let reversal = try await sandbox.adyen("POST", "/v71/payments/\(psp)/reversals", merchant)
                #expect(reversal.status == 201)
                let body = try Fixture.object(reversal)
                #expect(body["status"] as? String == "received" && body["paymentPspReference"] as? String == psp && body["amount"] == nil)
            }
            let update = try await sandbox.adyen(
                "POST", "/v71/payments/\(uncaptured)/amountUpdates", ["merchantAccount": Fixture.merchant, "amount": ["currency": "USD", "value": 1800]])
            #expect(update.status == 201)
            let updated = try Fixture.object(update)
            #expect(updated["status"] as? String == "received" && updated["reference"] as? String == "order-1")
            #expect((updated["amount"] as? [String: Any])?["value"] as? Int == 1800)
            let missingAmount = try await sandbox.adyen("POST", "/v71/payments/\(uncaptured)/amountUpdates", merchant)
            #expect(missingAmount.status == 422)

            let items = await receiver.wait {
                $0.compactMap(Self.item).filter { ["CANCEL_OR_REFUND", "AUTHORISATION_ADJUSTMENT"].contains($0["eventCode"] as? String ?? "") }.count >= 3
            }.compactMap(Self.item)
            let reversals = items.filter { $0["eventCode"] as? String == "CANCEL_OR_REFUND" }
            let actions = Dictionary(uniqueKeysWithValues: reversals.compactMap { item -> (String, String)? in
                guard let original = item["originalReference"] as? String, let data = item["additionalData"] as? [String: Any],
                    let action = data["modification.action"] as? String
                else { return nil }
                return (original, action)
            })
            #expect(actions == [uncaptured: "cancel", captured: "refund"])
            #expect(reversals.allSatisfy { $0["success"] as? String == "true" })
            let adjustment = items.first { $0["eventCode"] as? String == "AUTHORISATION_ADJUSTMENT" }
            #expect(adjustment?["success"] as? String == "false" && adjustment?["originalReference"] as? String == uncaptured)
        }
    }

    /// `POST /storedPaymentMethods` (card tokenization) checks its fields, then refuses as Adyen
    /// refuses details it cannot store: 422 `905`.
    @Test func storingCardDetailsIsRefusedInAdyensShape() async throws {
        try await Fixture.with { sandbox in
            let body: [String: Any] = [
                "merchantAccount": Fixture.merchant, "shopperReference": "shopper-1", "recurringProcessingModel": "CardOnFile",
                "paymentMethod": ["type": "scheme", "encryptedCardNumber": "test_4111111111111111"],
            ]
            let refused = try await sandbox.adyen("POST", "/v71/storedPaymentMethods", body)
            #expect(refused.status == 422)
            let error = try Fixture.object(refused)
            #expect(error["errorCode"] as? String == "905" && error["errorType"] as? String == "validation" && error["status"] as? Int == 422)
            var noModel = body
            noModel.removeValue(forKey: "recurringProcessingModel")
            let missing = try Fixture.object(try await sandbox.adyen("POST", "/v71/storedPaymentMethods", noModel))
            #expect(missing["errorCode"] as? String == "14_0")
            #expect(try await sandbox.adyen("POST", "/v71/storedPaymentMethods", body, apiKey: nil).status == 401)
        }
    }

    static func item(_ delivery: AdyenWebhookReceiver.Delivery) -> [String: Any]? {
        ((delivery.json?["notificationItems"] as? [[String: Any]])?.first)?["NotificationRequestItem"] as? [String: Any]
    }
}
