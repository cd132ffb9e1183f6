import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// Square's Payments API over a real socket, beside Afterpay's `/v2/`: every test nonce, the
/// reader's card-present reads, field checks, credentials, idempotency, delayed capture and its
/// deadline, cancel by idempotency key, ListPayments, the `drop` fault and the ledger's `charges`.
@Suite struct SquareAPITests {
    typealias Fixture = SquareTestSandbox

    // MARK: - Nonces

    @Test(arguments: [
        ("ok", 200, "COMPLETED", nil, nil), ("declined", 400, "FAILED", "GENERIC_DECLINE", "PAYMENT_METHOD_ERROR"),
        ("cvv", 400, "FAILED", "CVV_FAILURE", "PAYMENT_METHOD_ERROR"),
        ("postal", 400, "FAILED", "ADDRESS_VERIFICATION_FAILURE", "PAYMENT_METHOD_ERROR"),
        ("expired", 400, "FAILED", "INVALID_EXPIRATION", "PAYMENT_METHOD_ERROR"),
        ("insufficient", 400, "FAILED", "INSUFFICIENT_FUNDS", "PAYMENT_METHOD_ERROR"),
        ("used", 400, nil, "CARD_TOKEN_USED", "INVALID_REQUEST_ERROR"),
    ] as [(String, Int, String?, String?, String?)])
    func everyKeyedNonceEndsAsSquareDocuments(card name: String, status: Int, paymentStatus: String?, code: String?, category: String?) async throws {
        try await Fixture.with { sandbox in
            let card = try #require(SquareTestCard.named(name))
            let response = try await sandbox.square("POST", "/v2/payments", Fixture.create(card.nonce, extra: ["reference_id": "order-\(name)"]))
            #expect(response.status == status)
            let body = try Fixture.object(response)
            let payment = body["payment"] as? [String: Any]
            #expect(payment?["status"] as? String == paymentStatus)
            if let code {
                let error = try Fixture.error(response)
                #expect(error["code"] as? String == code)
                #expect(error["category"] as? String == category)
            } else {
                #expect(body["errors"] == nil)
            }
            guard let payment else { return }
            let details = try #require(payment["card_details"] as? [String: Any])
            #expect(details["entry_method"] as? String == "KEYED")
            #expect(details["status"] as? String == (paymentStatus == "COMPLETED" ? "CAPTURED" : "FAILED"))
            #expect(details["application_identifier"] == nil && details["application_name"] == nil)
            let cardJSON = try #require(details["card"] as? [String: Any])
            #expect(cardJSON["last_4"] as? String == card.card.last4)
            #expect(cardJSON["card_brand"] as? String == card.card.cardBrand)
            #expect(cardJSON["cardholder_name"] as? String == card.card.cardholderName)
            #expect(cardJSON["exp_month"] as? Int == card.card.expMonth && cardJSON["exp_year"] as? Int == card.card.expYear)
            #expect((payment["approved_money"] as? [String: Any])?["amount"] as? Int == (paymentStatus == "FAILED" ? 0 : 4505))
            #expect(payment["reference_id"] as? String == "order-\(name)")
            #expect(payment["location_id"] as? String == "LSANDBOX0001")
            if paymentStatus == "COMPLETED" {
                let id = try #require(payment["id"] as? String)
                #expect(id.count >= 22)
                #expect(payment["receipt_number"] as? String == String(id.prefix(4)))
                #expect(payment["receipt_url"] as? String == "\(sandbox.baseURL)/sandbox/square/receipts/\(id)")
            } else {
                #expect(payment["receipt_number"] == nil && payment["receipt_url"] == nil)
            }
        }
    }

    @Test(arguments: [SquareEntryMethod.tap, .insert, .swipe])
    func readerNoncesCarryTheEntryMethodAndTheChipApplication(entry: SquareEntryMethod) async throws {
        try await Fixture.with { sandbox in
            let card = try #require(SquareTestCard.named("ok"))
            let (status, payment) = try await sandbox.pay(Fixture.create(card.nonce(entry: entry)))
            #expect(status == 200)
            let details = try #require(payment["card_details"] as? [String: Any])
            #expect(details["entry_method"] as? String == entry.wire)
            #expect(details["application_identifier"] as? String == (entry.readsChip ? card.applicationIdentifier : nil))
            #expect(details["application_name"] as? String == (entry.readsChip ? card.applicationName : nil))
            #expect((details["card"] as? [String: Any])?["cardholder_name"] as? String == "Ada Lovelace")

            // A declining card read by the reader fails the same way.
            let declined = try await sandbox.square("POST", "/v2/payments", Fixture.create(try #require(SquareTestCard.named("insufficient")).nonce(entry: entry)))
            #expect(declined.status == 400)
            #expect(try Fixture.error(declined)["code"] as? String == "INSUFFICIENT_FUNDS")
            #expect(((try Fixture.object(declined)["payment"] as? [String: Any])?["card_details"] as? [String: Any])?["entry_method"] as? String == entry.wire)
        }
    }

    @Test func anUnknownNonceIsNotFound() async throws {
        try await Fixture.with { sandbox in
            let response = try await sandbox.square("POST", "/v2/payments", Fixture.create("cnon:not-a-test-nonce"))
            #expect(response.status == 404)
            let error = try Fixture.error(response)
            #expect(error["code"] as? String == "NOT_FOUND" && error["field"] as? String == "source_id")
            #expect(try await sandbox.ledger("square_payments").isEmpty)
        }
    }

    // MARK: - Field checks and credentials

    /// Each change to a good body (JSON; null removes the field, "LONG:N" is N characters), and what Square answers.
    @Test(arguments: [
        (#"{"source_id": null}"#, "MISSING_REQUIRED_PARAMETER", "source_id"),
        (#"{"source_id": ""}"#, "VALUE_TOO_SHORT", "source_id"),
        (#"{"source_id": 7}"#, "EXPECTED_STRING", "source_id"),
        (#"{"idempotency_key": null}"#, "MISSING_REQUIRED_PARAMETER", "idempotency_key"),
        (#"{"idempotency_key": ""}"#, "VALUE_TOO_SHORT", "idempotency_key"),
        (#"{"idempotency_key": "LONG:46"}"#, "VALUE_TOO_LONG", "idempotency_key"),
        (#"{"amount_money": null}"#, "MISSING_REQUIRED_PARAMETER", "amount_money"),
        (#"{"amount_money": {"currency": "USD"}}"#, "MISSING_REQUIRED_PARAMETER", "amount_money.amount"),
        (#"{"amount_money": {"amount": -1, "currency": "USD"}}"#, "VALUE_TOO_LOW", "amount_money.amount"),
        (#"{"amount_money": {"amount": 10.5, "currency": "USD"}}"#, "EXPECTED_INTEGER", "amount_money.amount"),
        (#"{"amount_money": {"amount": "100", "currency": "USD"}}"#, "EXPECTED_INTEGER", "amount_money.amount"),
        (#"{"amount_money": {"amount": 100000000000, "currency": "USD"}}"#, "VALUE_TOO_HIGH", "amount_money.amount"),
        (#"{"amount_money": {"amount": 100}}"#, "MISSING_REQUIRED_PARAMETER", "amount_money.currency"),
        (#"{"amount_money": {"amount": 100, "currency": "usd"}}"#, "INVALID_ENUM_VALUE", "amount_money.currency"),
        (#"{"amount_money": "100 USD"}"#, "EXPECTED_OBJECT", "amount_money"),
        (#"{"tip_money": {"amount": 100, "currency": "EUR"}}"#, "INVALID_VALUE", "tip_money.currency"),
        (#"{"app_fee_money": {"amount": 10, "currency": "CAD"}}"#, "INVALID_VALUE", "app_fee_money.currency"),
        (#"{"autocomplete": "no"}"#, "EXPECTED_BOOLEAN", "autocomplete"),
        (#"{"delay_duration": "PT10M"}"#, "CONFLICTING_PARAMETERS", "delay_duration"),
        (#"{"autocomplete": false, "delay_duration": "10 minutes"}"#, "INVALID_TIME", "delay_duration"),
        (#"{"autocomplete": false, "delay_duration": "PT30S"}"#, "VALUE_TOO_LOW", "delay_duration"),
        (#"{"autocomplete": false, "delay_duration": "P8D"}"#, "VALUE_TOO_HIGH", "delay_duration"),
        (#"{"delay_action": "COMPLETE"}"#, "CONFLICTING_PARAMETERS", "delay_action"),
        (#"{"autocomplete": false, "delay_action": "capture"}"#, "INVALID_ENUM_VALUE", "delay_action"),
        (#"{"accept_partial_authorization": true}"#, "CONFLICTING_PARAMETERS", "accept_partial_authorization"),
        (#"{"reference_id": "LONG:41"}"#, "VALUE_TOO_LONG", "reference_id"),
        (#"{"note": "LONG:501"}"#, "VALUE_TOO_LONG", "note"),
        (#"{"location_id": ""}"#, "VALUE_TOO_SHORT", "location_id"),
        (#"{"offline_payment_details": {"client_created_at": "yesterday"}}"#, "INVALID_TIME", "offline_payment_details.client_created_at"),
    ])
    func eachBadFieldIsNamed(change json: String, code: String, field: String) async throws {
        let change = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        try await Fixture.with { sandbox in
            var body = Fixture.create()
            for (key, value) in change {
                if value is NSNull {
                    body.removeValue(forKey: key)
                } else if let text = value as? String, text.hasPrefix("LONG:"), let count = Int(text.dropFirst(5)) {
                    body[key] = String(repeating: "x", count: count)
                } else {
                    body[key] = value
                }
            }
            let response = try await sandbox.square("POST", "/v2/payments", body)
            #expect(response.status == 400)
            let error = try Fixture.error(response)
            #expect(error["category"] as? String == "INVALID_REQUEST_ERROR")
            #expect(error["code"] as? String == code, "\(error)")
            #expect(error["field"] as? String == field, "\(error)")
            #expect(try await sandbox.ledger("square_payments").isEmpty)
        }
    }

    @Test func bodiesThatAreNotJSONObjectsAreRefused() async throws {
        var limits = SandboxLimits()
        limits.maxBodyBytes = 2_048
        try await Fixture.with(limits: limits) { sandbox in
            for raw in ["", "not json", "[1, 2]", #"{"source_id": "#, String(repeating: "[", count: 2_000)] {
                let response = try await sandbox.square("POST", "/v2/payments", rawBody: raw)
                #expect(response.status == 400)
                #expect(try Fixture.error(response)["code"] as? String == "EXPECTED_JSON_BODY")
            }
            let deep = #"{"source_id": "cnon:card-nonce-ok", "idempotency_key": "k", "amount_money": {"amount": 1, "currency": "USD"}, "x": "#
                + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
            #expect(try await sandbox.square("POST", "/v2/payments", rawBody: deep).status == 400)
            let huge = try await sandbox.square("POST", "/v2/payments", rawBody: "{\"note\": \"" + String(repeating: "x", count: 4_000) + "\"}")
            #expect(huge.status == 413)
            #expect(try Fixture.error(huge)["code"] as? String == "REQUEST_ENTITY_TOO_LARGE")
        }
    }

    @Test func onlyBearerTokensStartingEAAAAreAcceptedAndTheVersionIsADate() async throws {
        try await Fixture.with { sandbox in
            for token in [nil, "not-a-square-token", ""] as [String?] {
                let response = try await sandbox.square("POST", "/v2/payments", Fixture.create(), token: token)
                #expect(response.status == 401)
                let error = try Fixture.error(response)
                #expect(error["category"] as? String == "AUTHENTICATION_ERROR" && error["code"] as? String == "UNAUTHORIZED")
            }
            #expect(try await sandbox.square("GET", "/v2/payments", token: nil).status == 401)
            for version in ["2026-9-16", "latest", "2026-02-30"] {
                let response = try await sandbox.square("POST", "/v2/payments", Fixture.create(), version: version)
                #expect(response.status == 400)
                #expect(try Fixture.error(response)["code"] as? String == "INVALID_SQUARE_VERSION_FORMAT")
            }
            #expect(try await sandbox.pay(Fixture.create()).status == 200)
            #expect(try await sandbox.square("POST", "/v2/payments", Fixture.create(), version: nil).status == 200)
            #expect(try await sandbox.ledger("square_payments").count == 2)
        }
    }

    // MARK: - Idempotency

    @Test func theSameKeyAndBodyPaysOnceAndAnotherBodyIsRefused() async throws {
        try await Fixture.with { sandbox in
            let body = Fixture.create(key: "key-1", extra: ["reference_id": "order-1", "tip_money": ["amount": 500, "currency": "USD"]])
            let first = try await sandbox.pay(body)
            // The same request with its keys in another order and spacing is the same request.
            let reordered = #"{ "tip_money": {"currency": "USD", "amount": 500}, "reference_id": "order-1", "idempotency_key": "key-1","#
                + #" "amount_money": {"currency": "USD", "amount": 4505}, "source_id": "cnon:card-nonce-ok" }"#
            let again = try await sandbox.square("POST", "/v2/payments", rawBody: reordered)
            #expect(first.status == 200 && again.status == 200)
            let id = try #require(first.payment["id"] as? String)
            #expect((try Fixture.object(again)["payment"] as? [String: Any])?["id"] as? String == id)
            #expect((first.payment["total_money"] as? [String: Any])?["amount"] as? Int == 5005)

            let other = try await sandbox.square("POST", "/v2/payments", Fixture.create(amount: 4500, key: "key-1", extra: ["reference_id": "order-1"]))
            #expect(other.status == 400)
            let error = try Fixture.error(other)
            #expect(error["code"] as? String == "IDEMPOTENCY_KEY_REUSED" && error["field"] as? String == "idempotency_key")

            let rows = try await sandbox.ledger("square_payments")
            #expect(rows.count == 1)
            #expect(rows.first?["idempotency_key"] as? String == "key-1" && rows.first?["moved"] as? Int == 5005)
            let charges = try await sandbox.ledger("charges").filter { $0["provider"] as? String == "square" }
            #expect(charges.count == 1)
            #expect(charges.first?["id"] as? String == id && charges.first?["amount"] as? Int == 5005 && charges.first?["reference"] as? String == "order-1")

            // A declined payment is replayed too, errors and all, and moves nothing.
            let declined = Fixture.create("cnon:card-nonce-declined", key: "key-2")
            let failed = try await sandbox.pay(declined)
            let failedAgain = try await sandbox.square("POST", "/v2/payments", declined)
            #expect(failed.status == 400 && failedAgain.status == 400)
            #expect((try Fixture.object(failedAgain)["payment"] as? [String: Any])?["id"] as? String == failed.payment["id"] as? String)
            #expect(try Fixture.error(failedAgain)["code"] as? String == "GENERIC_DECLINE")
            #expect(try await sandbox.ledger("charges").filter { $0["provider"] as? String == "square" }.count == 1)
        }
    }

    // MARK: - Delayed capture

    @Test(arguments: [(SquareEntryMethod.keyed, "PT168H", 168 * 3_600.0), (.tap, "PT36H", 36 * 3_600.0)])
    func delayedCaptureWaitsApprovedAndCompletesWithTheCurrentVersion(entry: SquareEntryMethod, delay: String, seconds: Double) async throws {
        try await Fixture.with { sandbox in
            let card = try #require(SquareTestCard.named("ok"))
            let created = try await sandbox.pay(Fixture.create(card.nonce(entry: entry), extra: ["autocomplete": false]))
            #expect(created.status == 200)
            let payment = created.payment
            let id = try #require(payment["id"] as? String)
            #expect(payment["status"] as? String == "APPROVED")
            #expect((payment["card_details"] as? [String: Any])?["status"] as? String == "AUTHORIZED")
            #expect(payment["delay_duration"] as? String == delay)
            #expect(payment["delay_action"] as? String == "CANCEL")
            let createdAt = try Fixture.date(payment, "created_at")
            let until = try Fixture.date(payment, "delayed_until")
            #expect(until.timeIntervalSince(createdAt) == seconds)
            #expect(payment["receipt_number"] == nil && payment["receipt_url"] == nil)
            #expect(try await sandbox.ledger("square_payments").first?["moved"] as? Int == 4505)

            let stale = try await sandbox.square("POST", "/v2/payments/\(id)/complete", ["version_token": "not-the-current-one"])
            #expect(stale.status == 400)
            #expect(try Fixture.error(stale)["code"] as? String == "VERSION_MISMATCH")

            sandbox.clock.advance(by: 60)
            let completed = try await sandbox.square("POST", "/v2/payments/\(id)/complete", ["version_token": try #require(payment["version_token"] as? String)])
            #expect(completed.status == 200)
            let done = try #require(try Fixture.object(completed)["payment"] as? [String: Any])
            #expect(done["status"] as? String == "COMPLETED")
            #expect((done["card_details"] as? [String: Any])?["status"] as? String == "CAPTURED")
            #expect(done["receipt_number"] as? String == String(id.prefix(4)))
            #expect(done["version_token"] as? String != payment["version_token"] as? String)
            #expect(done["updated_at"] as? String != payment["updated_at"] as? String)
            #expect(try await sandbox.payment(id)["status"] as? String == "COMPLETED")

            let twice = try await sandbox.square("POST", "/v2/payments/\(id)/complete", [String: Any]())
            #expect(try Fixture.error(twice)["code"] as? String == "DELAYED_TRANSACTION_CAPTURED")
            let cancel = try await sandbox.square("POST", "/v2/payments/\(id)/cancel")
            #expect(try cancel.status == 400 && (Fixture.error(cancel)["code"] as? String) == "DELAYED_TRANSACTION_CAPTURED")

            // The receipt page shows what a card receipt must.
            let receipt = String(decoding: try await sandbox.control("GET", "/sandbox/square/receipts/\(id)").body, as: UTF8.self)
            #expect(receipt.contains("Ada Lovelace") && receipt.contains("VISA") && receipt.contains("1111") && receipt.contains(entry.wire))
            #expect(receipt.contains("45.05 USD") && receipt.contains("<th>Status</th><td>COMPLETED</td>"))
            #expect(receipt.contains(card.applicationIdentifier) == entry.readsChip)
        }
    }

    @Test func updatePaymentChangesAnApprovedPaymentsAmountAndTipOncePerKey() async throws {
        try await Fixture.with { sandbox in
            let created = try await sandbox.pay(Fixture.create(amount: 1000, extra: ["autocomplete": false]))
            let id = try #require(created.payment["id"] as? String)
            let version = try #require(created.payment["version_token"] as? String)
            let tip = ["idempotency_key": "tip-1", "payment": ["tip_money": ["amount": 150, "currency": "USD"], "version_token": version]] as [String: Any]
            let updated = try await sandbox.square("PUT", "/v2/payments/\(id)", tip)
            #expect(updated.status == 200)
            let payment = try #require(try Fixture.object(updated)["payment"] as? [String: Any])
            #expect(payment["status"] as? String == "APPROVED")
            #expect((payment["tip_money"] as? [String: Any])?["amount"] as? Int == 150)
            #expect((payment["total_money"] as? [String: Any])?["amount"] as? Int == 1150)
            #expect((payment["approved_money"] as? [String: Any])?["amount"] as? Int == 1150)
            #expect(payment["version_token"] as? String != version)
            #expect(try await sandbox.ledger("square_payments").first?["moved"] as? Int == 1150)

            // The same key and body: the payment as it is, not changed twice; another body: refused.
            let again = try await sandbox.square("PUT", "/v2/payments/\(id)", tip)
            #expect((try Fixture.object(again)["payment"] as? [String: Any])?["version_token"] as? String == payment["version_token"] as? String)
            var other = tip
            other["payment"] = ["amount_money": ["amount": 900, "currency": "USD"]]
            #expect(try Fixture.error(try await sandbox.square("PUT", "/v2/payments/\(id)", other))["code"] as? String == "IDEMPOTENCY_KEY_REUSED")
            // A stale version, another currency, no key.
            let stale = ["idempotency_key": "tip-2", "payment": ["tip_money": ["amount": 200, "currency": "USD"], "version_token": version]] as [String: Any]
            #expect(try Fixture.error(try await sandbox.square("PUT", "/v2/payments/\(id)", stale))["code"] as? String == "VERSION_MISMATCH")
            let euros = ["idempotency_key": "tip-3", "payment": ["tip_money": ["amount": 200, "currency": "EUR"]]] as [String: Any]
            #expect(try Fixture.error(try await sandbox.square("PUT", "/v2/payments/\(id)", euros))["code"] as? String == "CURRENCY_MISMATCH")
            let keyless = try await sandbox.square("PUT", "/v2/payments/\(id)", ["payment": [String: Any]()])
            #expect(try Fixture.error(keyless)["field"] as? String == "idempotency_key")

            // An update that changes nothing keeps the version.
            let noop = try await sandbox.square("PUT", "/v2/payments/\(id)", ["idempotency_key": "noop", "payment": [String: Any]()])
            #expect((try Fixture.object(noop)["payment"] as? [String: Any])?["version_token"] as? String == payment["version_token"] as? String)

            // Completed, it can no longer change; it captures the updated total.
            let completed = try await sandbox.square("POST", "/v2/payments/\(id)/complete")
            #expect((try Fixture.object(completed)["payment"] as? [String: Any])?["status"] as? String == "COMPLETED")
            let late = ["idempotency_key": "tip-4", "payment": ["tip_money": ["amount": 300, "currency": "USD"]]] as [String: Any]
            #expect(try Fixture.error(try await sandbox.square("PUT", "/v2/payments/\(id)", late))["code"] as? String == "DELAYED_TRANSACTION_CAPTURED")
            #expect(try await sandbox.ledger("square_payments").first?["total"] as? Int == 1150)
            #expect(try await sandbox.square("PUT", "/v2/payments/PAYMENT_UNKNOWN", late).status == 404)
        }
    }

    @Test func cancelVoidsAnApprovedPaymentOnce() async throws {
        try await Fixture.with { sandbox in
            let created = try await sandbox.pay(Fixture.create(extra: ["autocomplete": false, "reference_id": "order-9"]))
            let id = try #require(created.payment["id"] as? String)
            let canceled = try await sandbox.square("POST", "/v2/payments/\(id)/cancel")
            #expect(canceled.status == 200)
            let payment = try #require(try Fixture.object(canceled)["payment"] as? [String: Any])
            #expect(payment["status"] as? String == "CANCELED")
            #expect((payment["card_details"] as? [String: Any])?["status"] as? String == "VOIDED")
            #expect(payment["receipt_number"] == nil)
            let again = try await sandbox.square("POST", "/v2/payments/\(id)/cancel")
            #expect(try again.status == 400 && (Fixture.error(again)["code"] as? String) == "DELAYED_TRANSACTION_CANCELED")
            let complete = try await sandbox.square("POST", "/v2/payments/\(id)/complete")
            #expect(try Fixture.error(complete)["code"] as? String == "DELAYED_TRANSACTION_CANCELED")
            #expect(try await sandbox.ledger("square_payments").first?["moved"] as? Int == 0)
            #expect(try await sandbox.ledger("charges").filter { $0["provider"] as? String == "square" }.isEmpty)
            #expect(try await sandbox.control("GET", "/sandbox/square/receipts/\(id)").status == 404)
        }
    }

    @Test(arguments: ["CANCEL", "COMPLETE"])
    func anExpiredDelayAppliesItsActionByItself(action: String) async throws {
        try await Fixture.with { sandbox in
            let created = try await sandbox.pay(Fixture.create(extra: ["autocomplete": false, "delay_duration": "PT10M", "delay_action": action]))
            let id = try #require(created.payment["id"] as? String)
            #expect(created.payment["delay_duration"] as? String == "PT10M")
            sandbox.clock.advance(by: 599)
            #expect(try await sandbox.payment(id)["status"] as? String == "APPROVED")
            sandbox.clock.advance(by: 1)
            let payment = try await sandbox.payment(id)
            #expect(payment["status"] as? String == (action == "CANCEL" ? "CANCELED" : "COMPLETED"))
            #expect((payment["card_details"] as? [String: Any])?["status"] as? String == (action == "CANCEL" ? "VOIDED" : "CAPTURED"))
            #expect(payment["updated_at"] as? String == created.payment["delayed_until"] as? String)
            #expect((payment["receipt_number"] != nil) == (action == "COMPLETE"))
            let complete = try await sandbox.square("POST", "/v2/payments/\(id)/complete")
            #expect(try Fixture.error(complete)["code"] as? String == (action == "CANCEL" ? "DELAYED_TRANSACTION_EXPIRED" : "DELAYED_TRANSACTION_CAPTURED"))
            #expect(try await sandbox.ledger("square_payments").first?["moved"] as? Int == (action == "CANCEL" ? 0 : 4505))
        }
    }

    @Test func theLedgerAppliesADueDelayWithoutAnyPaymentRead() async throws {
        try await Fixture.with { sandbox in
            _ = try await sandbox.pay(Fixture.create(extra: ["autocomplete": false, "delay_duration": "PT1M"]))
            #expect(try await sandbox.ledger("charges").count == 1)
            sandbox.clock.advance(by: 61)
            #expect(try await sandbox.ledger("charges").isEmpty)
            #expect(try await sandbox.ledger("square_payments").first?["status"] as? String == "CANCELED")
        }
    }

    @Test func theTimeScaleShortensTheDelayInRealTime() async throws {
        try await Fixture.with(timeScale: 60) { sandbox in
            let created = try await sandbox.pay(Fixture.create(extra: ["autocomplete": false, "delay_duration": "PT5M", "delay_action": "COMPLETE"]))
            let id = try #require(created.payment["id"] as? String)
            // Square's delay is still five minutes; at 60 sandbox seconds a second it ends 5 s on.
            #expect(created.payment["delay_duration"] as? String == "PT5M")
            let createdAt = try Fixture.date(created.payment, "created_at")
            let until = try Fixture.date(created.payment, "delayed_until")
            #expect(until.timeIntervalSince(createdAt) == 5)
            sandbox.clock.advance(by: 4.9)
            #expect(try await sandbox.payment(id)["status"] as? String == "APPROVED")
            sandbox.clock.advance(by: 0.1)
            #expect(try await sandbox.payment(id)["status"] as? String == "COMPLETED")
        }
    }

    // MARK: - CancelPaymentByIdempotencyKey

    @Test func cancelByIdempotencyKeyVoidsWhatTheKeyMadeAndIsANoOpOtherwise() async throws {
        try await Fixture.with { sandbox in
            let none = try await sandbox.square("POST", "/v2/payments/cancel", ["idempotency_key": "never-used"])
            #expect(none.status == 200)
            #expect(try Fixture.object(none).isEmpty)

            let approved = try await sandbox.pay(Fixture.create(key: "approved-key", extra: ["autocomplete": false]))
            let id = try #require(approved.payment["id"] as? String)
            let canceled = try await sandbox.square("POST", "/v2/payments/cancel", ["idempotency_key": "approved-key"])
            #expect(try canceled.status == 200 && (Fixture.object(canceled).isEmpty))
            #expect(try await sandbox.payment(id)["status"] as? String == "CANCELED")
            // Again: nothing left to void.
            #expect(try await sandbox.square("POST", "/v2/payments/cancel", ["idempotency_key": "approved-key"]).status == 200)

            _ = try await sandbox.pay(Fixture.create(key: "completed-key"))
            let completed = try await sandbox.square("POST", "/v2/payments/cancel", ["idempotency_key": "completed-key"])
            #expect(completed.status == 400)
            #expect(try Fixture.error(completed)["code"] as? String == "DELAYED_TRANSACTION_CAPTURED")

            let missing = try await sandbox.square("POST", "/v2/payments/cancel", [String: Any]())
            #expect(try Fixture.error(missing)["field"] as? String == "idempotency_key")
        }
    }

    // MARK: - GetPayment and ListPayments

    @Test func unknownPaymentsAreNotFoundInSquaresShape() async throws {
        try await Fixture.with { sandbox in
            for (method, path) in [("GET", "/v2/payments/no-such-payment"), ("POST", "/v2/payments/NOSUCHPAYMENT/complete"), ("POST", "/v2/payments/NOSUCH/cancel")] {
                let response = try await sandbox.square(method, path)
                #expect(response.status == 404, "\(method) \(path)")
                let error = try Fixture.error(response)
                #expect(error["code"] as? String == "NOT_FOUND" && error["category"] as? String == "INVALID_REQUEST_ERROR")
            }
            let wrongMethod = try await sandbox.square("GET", "/v2/payments/X/complete")
            #expect(wrongMethod.status == 405)
            #expect(try Fixture.error(wrongMethod)["code"] as? String == "METHOD_NOT_ALLOWED")
        }
    }

    @Test func listPaymentsFiltersSortsAndPages() async throws {
        try await Fixture.with { sandbox in
            let empty = try await sandbox.square("GET", "/v2/payments")
            #expect(try empty.status == 200 && (Fixture.object(empty).isEmpty))

            var ids: [String] = []
            for (index, name) in ["ok", "declined", "ok", "insufficient", "ok"].enumerated() {
                let card = try #require(SquareTestCard.named(name))
                ids.append(try #require(try await sandbox.pay(Fixture.create(card.nonce, amount: 1000 + index, extra: ["reference_id": "r\(index)"])).payment["id"] as? String))
                sandbox.clock.advance(by: 1)
            }
            _ = try await sandbox.pay(Fixture.create(amount: 1000, extra: ["location_id": "LOTHER"]))

            func list(_ query: String) async throws -> (payments: [String], cursor: String?) {
                let response = try await sandbox.square("GET", "/v2/payments" + query)
                #expect(response.status == 200, "\(query): \(String(decoding: response.body, as: UTF8.self))")
                let object = try Fixture.object(response)
                return ((object["payments"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }, object["cursor"] as? String)
            }
            #expect(try await list("").payments == ids.reversed())
            #expect(try await list("?sort_order=ASC").payments == ids)
            #expect(try await list("?total=1002").payments == [ids[2]])
            #expect(try await list("?last_4=4444").payments == [ids[1]])
            #expect(try await list("?card_brand=mastercard&sort_order=ASC").payments == [ids[1], ids[3]])
            #expect(try await list("?location_id=LOTHER").payments.count == 1)
            // Times: the payments were made a second apart from the manual clock's start.
            let start = ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 1_800_000_001))
            let end = ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 1_800_000_002))
            #expect(try await list("?sort_order=ASC&begin_time=\(start)&end_time=\(end)").payments == [ids[1], ids[2]])

            // Pages of two follow the cursor to the end.
            var pages: [[String]] = []
            var cursor: String?
            repeat {
                let page = try await list("?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
                pages.append(page.payments)
                cursor = page.cursor
            } while cursor != nil && pages.count < 10
            #expect(pages == [[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]])
            // Over 100 is ignored (the default, 100, is used), as Square documents.
            #expect(try await list("?limit=500").payments.count == 5)

            for (query, code, field) in [
                ("?sort_order=NEWEST", "INVALID_SORT_ORDER", "sort_order"), ("?limit=0", "VALUE_TOO_LOW", "limit"),
                ("?limit=ten", "EXPECTED_INTEGER", "limit"), ("?begin_time=yesterday", "INVALID_TIME", "begin_time"),
                ("?begin_time=\(end)&end_time=\(start)", "INVALID_TIME_RANGE", "begin_time"), ("?cursor=bogus", "INVALID_CURSOR", "cursor"),
            ] {
                let response = try await sandbox.square("GET", "/v2/payments" + query)
                #expect(response.status == 400, "\(query)")
                let error = try Fixture.error(response)
                #expect(error["code"] as? String == code && error["field"] as? String == field, "\(query): \(error)")
            }
        }
    }

    @Test func anOfflinePaymentIsMarkedSo() async throws {
        try await Fixture.with { sandbox in
            let taken = "2026-11-20T10:00:00.000Z"
            let (status, payment) = try await sandbox.pay(Fixture.create(extra: ["offline_payment_details": ["client_created_at": taken]]))
            #expect(status == 200)
            #expect(payment["is_offline_payment"] as? Bool == true)
            #expect((payment["offline_payment_details"] as? [String: Any])?["client_created_at"] as? String == taken)
            #expect(try await sandbox.ledger("square_payments").first?["offline"] as? Bool == true)
            let online = try await sandbox.pay(Fixture.create())
            #expect(online.payment["is_offline_payment"] == nil)
        }
    }

    // MARK: - Beside Afterpay, faults and the ledger

    @Test func afterpaysPathsUnderV2PaymentsStillAnswerAsAfterpay() async throws {
        try await Fixture.with { sandbox in
            // Afterpay's Get Payment (Basic credentials) shares GET /v2/payments/{id} with Square.
            let basic = "Basic " + Data("100101:sandbox-secret-key".utf8).base64EncodedString()
            let http = ProviderHTTPClient(timeout: .seconds(30), retryPolicy: RetryPolicy(maxAttempts: 1, baseDelay: .milliseconds(1)))
            let afterpay = try await http.send(
                ProviderRequest(method: "GET", url: sandbox.baseURL + "/v2/payments/token:unknown", headers: [(name: "Authorization", value: basic)]),
                provider: "test")
            #expect(afterpay.status == 404)
            #expect(try JSONDecoder().decode(AfterpayError.self, from: afterpay.body).errorCode == "not_found")
            let sign = try await sandbox.control("POST", "/v2/payments/sign-payment", ["token": "nope"])
            #expect(try JSONDecoder().decode(AfterpayError.self, from: sign.body).errorCode == "invalid_token")
            // Square's own read of an id it made, even without Square's headers.
            let id = try #require(try await sandbox.pay(Fixture.create()).payment["id"] as? String)
            let bare = try await sandbox.square("GET", "/v2/payments/\(id)", token: "EAAAx", version: nil)
            #expect((try Fixture.object(bare)["payment"] as? [String: Any])?["id"] as? String == id)
        }
    }

    @Test func injectedFaultsAnswerInSquaresShape() async throws {
        try await Fixture.with { sandbox in
            try await sandbox.sandbox.faults.add(try FaultRule(spec: "POST /v2/payments 503"))
            let unavailable = try await sandbox.square("POST", "/v2/payments", Fixture.create())
            #expect(unavailable.status == 503)
            let error = try Fixture.error(unavailable)
            #expect(error["category"] as? String == "API_ERROR" && error["code"] as? String == "SERVICE_UNAVAILABLE")
            let id = try #require(try await sandbox.pay(Fixture.create()).payment["id"] as? String)
            try await sandbox.sandbox.faults.add(try FaultRule(spec: "GET /v2/payments/ 429"))
            let limited = try await sandbox.square("GET", "/v2/payments/\(id)")
            #expect(limited.status == 429)
            #expect(try Fixture.error(limited)["code"] as? String == "RATE_LIMITED")
        }
    }

    @Test func aDroppedRequestNeverReachesSquareButAResetOneDoes() async throws {
        try await Fixture.with { sandbox in
            #expect(try FaultRule(spec: "POST /v2/payments drop").kind == .drop)
            try await sandbox.sandbox.faults.add(try FaultRule(spec: "POST /v2/payments drop"))
            await #expect(throws: TransportFailure.self) { try await sandbox.square("POST", "/v2/payments", Fixture.create(key: "dropped")) }
            #expect(try await sandbox.ledger("square_payments").isEmpty)
            // The key was never used: cancelling by it is a no-op, and paying with it pays.
            #expect(try Fixture.object(try await sandbox.square("POST", "/v2/payments/cancel", ["idempotency_key": "dropped"])).isEmpty)
            #expect(try await sandbox.pay(Fixture.create(key: "dropped")).status == 200)

            try await sandbox.sandbox.faults.add(try FaultRule(spec: "POST /v2/payments reset"))
            await #expect(throws: TransportFailure.self) { try await sandbox.square("POST", "/v2/payments", Fixture.create(key: "reset")) }
            let rows = try await sandbox.ledger("square_payments")
            #expect(rows.map { $0["idempotency_key"] as? String } == ["dropped", "reset"])
            #expect(try await sandbox.sandbox.faults.pending.isEmpty)
        }
    }

    @Test func aDroppedConnectionSendsNoBytes() async throws {
        try await Fixture.with { sandbox in
            try await sandbox.sandbox.faults.add(try FaultRule(spec: "GET /v2/payments drop"))
            let connection = try RawConnection(port: sandbox.sandbox.port)
            connection.send("GET /v2/payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(Fixture.token)\r\n\r\n")
            // Generous: the wait ends as soon as it closes; the whole suite beside it can starve two cores.
            #expect(await connection.waitForClose(timeout: 30))
            #expect(connection.text.isEmpty)
        }
    }

    @Test func theChargesSectionListsEveryProvidersMoneyOnce() async throws {
        try await Fixture.with { sandbox in
            let completed = try #require(try await sandbox.pay(Fixture.create(amount: 1200, extra: ["reference_id": "sq-1"])).payment["id"] as? String)
            let approved = try #require(try await sandbox.pay(Fixture.create(amount: 700, extra: ["reference_id": "sq-2", "autocomplete": false])).payment["id"] as? String)
            _ = try await sandbox.pay(Fixture.create("cnon:card-nonce-declined", extra: ["reference_id": "sq-3"]))
            let charges = try await sandbox.ledger("charges")
            #expect(charges.map { $0["id"] as? String } == [completed, approved])
            #expect(charges.allSatisfy { $0["provider"] as? String == "square" && $0["currency"] as? String == "USD" })
            #expect(charges.map { $0["amount"] as? Int } == [1200, 700])
            #expect(charges.map { $0["reference"] as? String } == ["sq-1", "sq-2"])
        }
        // Adyen's authorised payments are charges too.
        try await AdyenTestSandbox.with { sandbox in
            let payment = try await sandbox.pay(2500)
            let charges = try await sandbox.ledger()["charges"] as? [[String: Any]] ?? []
            #expect(charges.count == 1)
            #expect(charges.first?["provider"] as? String == "adyen" && charges.first?["id"] as? String == payment["pspReference"] as? String)
            #expect(charges.first?["amount"] as? Int == 2500 && charges.first?["reference"] as? String == "order-1")
        }
    }

    @Test func anAfterpayCaptureIsOneCharge() async throws {
        try await SandboxHarness.with { harness in
            let checkout = try await harness.afterpay("POST", "/v2/checkouts", json: AfterpayAPITests.checkoutJSON())
            let token = try JSONDecoder().decode(AfterpayCheckoutResponse.self, from: checkout.body).token
            let signResponse = try await harness.afterpay("POST", "/v2/payments/sign-payment", json: #"{"token": "\#(token)"}"#, credentials: nil)
            let signed = try JSONDecoder().decode(AfterpaySignResponse.self, from: signResponse.body)
            let created = try await harness.client().create(CreateCustomerRequestParams(
                actions: [.oneTimePayment(scopeID: signed.externalBrandId, amount: 1999, currency: "USD")], channel: .IN_APP, redirectURL: signed.redirectUrl))
            let request = try await harness.customer.customer(.approve, requestID: created.id).request
            let grant = try #require(request.grants?.first?.id)
            let validation = try JSONEncoder().encode(AfterpayValidateRequest(jwt: signed.jwtToken, externalCustomerId: request.customerProfile!.id, externalGrantId: grant))
            _ = try await harness.afterpay("POST", "/v2/payments/validate-payment", json: String(decoding: validation, as: UTF8.self), credentials: nil)
            let body = #"{"token": "\#(token)", "merchantReference": "order-7", "grantId": "\#(grant)"}"#
            #expect(try await harness.afterpay("POST", "/v2/payments/capture", json: body).status == 201)
            #expect(try await harness.afterpay("POST", "/v2/payments/capture", json: body).status == 201)
            let ledger = try JSONSerialization.jsonObject(with: try await harness.raw(method: "GET", path: "/sandbox/ledger", body: nil).body) as? [String: Any]
            let charges = ledger?["charges"] as? [[String: Any]] ?? []
            #expect(charges.count == 1)
            #expect(charges.first?["provider"] as? String == "afterpay" && charges.first?["id"] as? String == token)
            #expect(charges.first?["amount"] as? Int == 1999 && charges.first?["reference"] as? String == "order-7")
        }
    }
}
