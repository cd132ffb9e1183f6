import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport
import _CryptoExtras

/// Antom's sandbox over a real socket: signatures both ways, field checks, idempotency, the
/// cashier (JSON, pages, the customer's buttons), inquiry, expiry, notifications to a real
/// receiver, registered clients, the magic amounts, and one order never charged twice.
@Suite struct AntomSandboxTests {
    typealias Fixture = AntomTestSandbox

    /// Creates a session: its paymentSessionId.
    private func open(_ sandbox: Fixture, _ body: [String: Any]) async throws -> String {
        let answer = try await sandbox.create(body)
        #expect(Fixture.result(answer)["resultStatus"] as? String == "S", "\(answer)")
        return try #require(answer["paymentSessionId"] as? String)
    }

    // MARK: - Signatures and clients

    @Test func aSignedCreateGetsASignedAnswerThatVerifiesWithTheSandboxKey() async throws {
        try await Fixture.with { sandbox in
            let body = Fixture.session("req-signed")
            let response = try await sandbox.api(Fixture.createPath, json: body)
            #expect(response.status == 200)
            #expect(Fixture.isVerified(response, path: Fixture.createPath))
            #expect(Fixture.header("client-id", in: response) == Fixture.clientID)
            #expect(Fixture.header("response-time", in: response) == AntomTime.string(sandbox.now))
            #expect(Fixture.header("signature", in: response)?.hasPrefix("algorithm=RSA256,keyVersion=1,signature=") == true)
            #expect(Fixture.header("Content-Type", in: response) == "application/json; charset=UTF-8")
            // Verified over the exact bytes: one byte more and it fails.
            let tampered = ProviderResponse(status: 200, headers: response.headers, body: response.body + Data(" ".utf8))
            #expect(!Fixture.isVerified(tampered, path: Fixture.createPath))

            let answer = try Fixture.object(response)
            #expect(Fixture.result(answer)["resultCode"] as? String == "SUCCESS")
            let id = try #require(answer["paymentSessionId"] as? String)
            let sessionData = try #require(answer["paymentSessionData"] as? String)
            let data = try #require(AntomSessionData(encoded: sessionData))
            #expect(data.paymentSessionId == id && data.environment == "sandbox")
            #expect(data.cashierUrl == "\(sandbox.baseURL)/sandbox/antom/cashier/\(id)")
            #expect(answer["normalUrl"] as? String == "\(sandbox.baseURL)/sandbox/antom/cashier/\(id)/page")
            #expect(answer["paymentSessionExpiryTime"] as? String == AntomTime.string(sandbox.now.addingTimeInterval(3_600)))

            let inquiry = try await sandbox.inquire(paymentRequestId: "req-signed")
            #expect(inquiry["paymentStatus"] as? String == "PROCESSING")
            #expect(inquiry["paymentId"] == nil)
            #expect((inquiry["paymentAmount"] as? [String: Any])?["value"] as? String == "15000")
            #expect(inquiry["paymentCreateTime"] as? String == AntomTime.string(sandbox.now))
        }
    }

    @Test func aTamperedBodyOrAMissingSignatureIsInvalidSignature() async throws {
        try await Fixture.with { sandbox in
            let body = try JSONSerialization.data(withJSONObject: Fixture.session("req-tampered"))
            let tampered = try await sandbox.api(Fixture.createPath, body, sent: body + Data(" ".utf8))
            #expect(tampered.status == 200)
            #expect(Fixture.isVerified(tampered, path: Fixture.createPath))
            #expect(Fixture.result(try Fixture.object(tampered))["resultCode"] as? String == "INVALID_SIGNATURE")
            #expect(Fixture.result(try Fixture.object(tampered))["resultStatus"] as? String == "F")

            let unsigned = try await sandbox.api(Fixture.createPath, body, sign: false)
            #expect(Fixture.result(try Fixture.object(unsigned))["resultCode"] as? String == "INVALID_SIGNATURE")

            let otherKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let wrongKey = try await sandbox.api(Fixture.createPath, body, key: otherKey)
            #expect(Fixture.result(try Fixture.object(wrongKey))["resultCode"] as? String == "INVALID_SIGNATURE")
            // Nothing was created by any of them.
            #expect(Fixture.result(try await sandbox.inquire(paymentRequestId: "req-tampered"))["resultCode"] as? String == "ORDER_NOT_EXIST")
        }
    }

    @Test func anUnknownClientIsKeyNotFoundAndAMissingOneAccessDenied() async throws {
        try await Fixture.with { sandbox in
            let body = try JSONSerialization.data(withJSONObject: Fixture.session())
            let unknown = try await sandbox.api(Fixture.createPath, body, clientID: "SANDBOX_NOBODY")
            #expect(unknown.status == 200)
            #expect(Fixture.isVerified(unknown, path: Fixture.createPath))
            #expect(Fixture.result(try Fixture.object(unknown))["resultCode"] as? String == "KEY_NOT_FOUND")

            let missing = try await sandbox.api(Fixture.createPath, body, clientID: nil)
            #expect(missing.status == 200)
            let result = Fixture.result(try Fixture.object(missing))
            #expect(result["resultCode"] as? String == "ACCESS_DENIED" && result["resultStatus"] as? String == "F")
            // Unsigned: both headers absent, as the SDK accepts for F results.
            #expect(Fixture.header("signature", in: missing) == nil && Fixture.header("response-time", in: missing) == nil)
        }
    }

    @Test func aSandboxClientOnTheProductionPathIsAccessDenied() async throws {
        try await Fixture.with { sandbox in
            let path = "/ams/api/v1/payments/createPaymentSession"
            let response = try await sandbox.api(path, try JSONSerialization.data(withJSONObject: Fixture.session()))
            #expect(Fixture.isVerified(response, path: path))
            let result = Fixture.result(try Fixture.object(response))
            #expect(result["resultCode"] as? String == "ACCESS_DENIED")
            #expect((result["resultMessage"] as? String)?.contains("/ams/sandbox/api/v1/payments/createPaymentSession") == true)
        }
    }

    @Test func aRegisteredClientCallsWithItsOwnKeyOnEitherPath() async throws {
        try await Fixture.with { sandbox in
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let registered = try await sandbox.control(
                "POST", "/sandbox/antom/clients", ["client_id": "MERCHANT_1", "public_key": key.publicKey.pemRepresentation])
            #expect(registered.status == 201)
            #expect(try Fixture.object(registered)["client_id"] as? String == "MERCHANT_1")

            for path in ["/ams/api/v1/payments/createPaymentSession", Fixture.createPath] {
                let body = try JSONSerialization.data(withJSONObject: Fixture.session())
                let response = try await sandbox.api(path, body, clientID: "MERCHANT_1", key: key)
                #expect(Fixture.isVerified(response, path: path))
                #expect(Fixture.header("client-id", in: response) == "MERCHANT_1")
                #expect(Fixture.result(try Fixture.object(response))["resultCode"] as? String == "SUCCESS")
                // The test client's key does not sign for it.
                let impostor = try await sandbox.api(path, body, clientID: "MERCHANT_1")
                #expect(Fixture.result(try Fixture.object(impostor))["resultCode"] as? String == "INVALID_SIGNATURE")
            }
            // Its payments are its own: the test client cannot see them.
            let own = try await sandbox.api(Fixture.createPath, try JSONSerialization.data(withJSONObject: Fixture.session("req-m1")), clientID: "MERCHANT_1", key: key)
            #expect(Fixture.result(try Fixture.object(own))["resultCode"] as? String == "SUCCESS")
            #expect(Fixture.result(try await sandbox.inquire(paymentRequestId: "req-m1"))["resultCode"] as? String == "ORDER_NOT_EXIST")

            let badID = try await sandbox.control("POST", "/sandbox/antom/clients", ["client_id": "no spaces", "public_key": key.publicKey.pemRepresentation])
            #expect(badID.status == 400)
            #expect((try Fixture.object(badID)["errors"] as? [[String: Any]])?.first?["field"] as? String == "client_id")
            let badKey = try await sandbox.control("POST", "/sandbox/antom/clients", ["client_id": "MERCHANT_2", "public_key": "not a key"])
            #expect(badKey.status == 400)
            #expect((try Fixture.object(badKey)["errors"] as? [[String: Any]])?.first?["field"] as? String == "public_key")
            let builtIn = try await sandbox.control("POST", "/sandbox/antom/clients", ["client_id": Fixture.clientID, "public_key": key.publicKey.pemRepresentation])
            #expect(builtIn.status == 409)

            let keys = try Fixture.object(try await sandbox.control("GET", "/sandbox/antom/keys"))
            #expect(keys["sandbox_public_key"] as? String == AntomSandboxCredentials.sandboxPublicKey)
            let client = try #require(keys["test_client"] as? [String: Any])
            #expect(client["client_id"] as? String == AntomSandboxCredentials.clientID)
            #expect(client["private_key"] as? String == AntomSandboxCredentials.clientPrivateKey)
            #expect(client["public_key"] as? String == AntomSandboxCredentials.clientPublicKey)
            #expect((keys["paths"] as? [String: Any])?["create_payment_session"] as? String == Fixture.createPath)
            #expect((keys["clients"] as? [String])?.contains("MERCHANT_1") == true)
        }
    }

    // MARK: - Field checks

    /// Each change to a good body (JSON text; nil removes the field), the result code, and what the message names.
    @Test(arguments: [
        ("productCode", #""ONLINE_PAYMENT""#, "PARAM_ILLEGAL", "productCode must be CASHIER_PAYMENT or AGREEMENT_PAYMENT or IN_STORE_PAYMENT"),
        ("productCode", nil, "PARAM_ILLEGAL", "productCode"),
        ("paymentRequestId", nil, "PARAM_ILLEGAL", "paymentRequestId is required"),
        ("paymentRequestId", "\"\(String(repeating: "x", count: 65))\"", "PARAM_ILLEGAL", "paymentRequestId must be 1–64"),
        ("paymentAmount", #"{"currency": "THB", "value": "0"}"#, "PARAM_ILLEGAL", "paymentAmount.value"),
        ("paymentAmount", #"{"currency": "THB", "value": "12.50"}"#, "PARAM_ILLEGAL", "paymentAmount.value"),
        ("paymentAmount", #"{"currency": "THB", "value": 1500}"#, "PARAM_ILLEGAL", "paymentAmount.value must be a string"),
        ("paymentAmount", #"{"currency": "thb", "value": "1500"}"#, "PARAM_ILLEGAL", "paymentAmount.currency"),
        ("paymentAmount", #"{"currency": "EUR", "value": "1500"}"#, "CURRENCY_NOT_SUPPORT", "paymentAmount.currency EUR"),
        ("paymentAmount", nil, "PARAM_ILLEGAL", "paymentAmount is required"),
        ("order", #"{"referenceOrderId": "o-1", "orderDescription": "x", "orderAmount": {"currency": "USD", "value": "15000"}}"#, "PARAM_ILLEGAL",
         "order.orderAmount.currency"),
        ("order", #"{"orderDescription": "x", "orderAmount": {"currency": "THB", "value": "15000"}}"#, "PARAM_ILLEGAL", "order.referenceOrderId"),
        ("order", #"{"referenceOrderId": "o-1", "orderAmount": {"currency": "THB", "value": "15000"}}"#, "PARAM_ILLEGAL", "order.orderDescription"),
        ("paymentMethod", #"{"paymentMethodType": "CARD", "paymentMethodMetaData": "{\"bankName\":\"SCB\"}"}"#, "PARAM_ILLEGAL",
         "paymentMethod.paymentMethodType must be BANK"),
        ("paymentMethod", #"{"paymentMethodType": "BANK", "paymentMethodMetaData": "{\"bankName\":\"NOPE\"}"}"#, "PARAM_ILLEGAL",
         "paymentMethod.paymentMethodMetaData"),
        ("paymentMethod", #"{"paymentMethodType": "BANK", "paymentMethodMetaData": {"paymentMethodRegion": "MY"}}"#, "PARAM_ILLEGAL",
         "paymentMethodRegion"),
        ("paymentMethod", #"{"paymentMethodType": "BANK"}"#, "PARAM_ILLEGAL", "paymentMethod.paymentMethodMetaData"),
        ("paymentRedirectUrl", nil, "PARAM_ILLEGAL", "paymentRedirectUrl is required"),
        ("paymentNotifyUrl", #""ftp://shop.example/notify""#, "PARAM_ILLEGAL", "paymentNotifyUrl must be an absolute http"),
        ("paymentSessionExpiryTime", #""tomorrow""#, "PARAM_ILLEGAL", "paymentSessionExpiryTime must be ISO 8601"),
        ("paymentSessionExpiryTime", #""2027-01-15T09:00:01+00:00""#, "PARAM_ILLEGAL", "at most an hour ahead"),
        ("paymentSessionExpiryTime", #""2027-01-15T07:00:00+00:00""#, "PARAM_ILLEGAL", "in the future"),
        ("settlementStrategy", #"{"settlementCurrency": "JPY"}"#, "CURRENCY_NOT_SUPPORT", "settlementStrategy.settlementCurrency JPY"),
        ("settlementStrategy", #""USD""#, "PARAM_ILLEGAL", "settlementStrategy must be an object"),
    ] as [(String, String?, String, String)])
    func everyFieldIsChecked(field: String, json: String?, code: String, message: String) async throws {
        // The manual clock starts at 2027-01-15T08:00:00Z.
        try await Fixture.with { sandbox in
            var body = Fixture.session()
            body[field] = try json.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed) }
            let response = try await sandbox.api(Fixture.createPath, json: body)
            #expect(Fixture.isVerified(response, path: Fixture.createPath))
            let result = Fixture.result(try Fixture.object(response))
            #expect(result["resultCode"] as? String == code)
            #expect(result["resultStatus"] as? String == "F")
            #expect((result["resultMessage"] as? String)?.contains(message) == true, "\(result)")
            #expect(try await sandbox.ledger("antom_payments").isEmpty)
        }
    }

    @Test func anUnsupportedCurrencyIsCurrencyNotSupport() async throws {
        try await Fixture.with { sandbox in
            let answer = try await sandbox.create(Fixture.session(currency: "EUR"))
            #expect(Fixture.result(answer)["resultCode"] as? String == "CURRENCY_NOT_SUPPORT")
            #expect((Fixture.result(answer)["resultMessage"] as? String)?.contains("USD, THB, IDR") == true)
            for currency in ["USD", "THB", "IDR"] {
                #expect(Fixture.result(try await sandbox.create(Fixture.session(currency: currency)))["resultCode"] as? String == "SUCCESS")
            }
        }
    }

    @Test func aMetaDataObjectReadsAsItsJSONString() async throws {
        try await Fixture.with { sandbox in
            var body = Fixture.session()
            body["paymentMethod"] = ["paymentMethodType": "BANK", "paymentMethodMetaData": ["bankName": "KBANK"]]
            let id = try await open(sandbox, body)
            let cashier = try Fixture.object(try await sandbox.control("GET", "/sandbox/antom/cashier/\(id)"))
            #expect((cashier["banks"] as? [[String: Any]])?.map { $0["bankName"] as? String } == ["KBANK"])
        }
    }

    // MARK: - Idempotency and orders

    @Test func theSameRequestReplaysTheSessionAndAnotherBodyIsInconsistent() async throws {
        try await Fixture.with { sandbox in
            let body = Fixture.session("req-idem", order: "order-idem")
            let first = try await sandbox.create(body)
            // Pretty-printed, keys in another order (as the Python SDK sends): the same request.
            let pretty = try JSONSerialization.data(withJSONObject: body, options: [.prettyPrinted])
            let replayed = try await sandbox.api(Fixture.createPath, pretty)
            try Fixture.requireVerified(replayed, path: Fixture.createPath)
            let second = try Fixture.object(replayed)
            #expect(second["paymentSessionId"] as? String == first["paymentSessionId"] as? String)
            #expect(second["paymentSessionData"] as? String == first["paymentSessionData"] as? String)

            var changed = body
            changed["paymentAmount"] = ["currency": "THB", "value": "15001"]
            changed["order"] = ["referenceOrderId": "order-idem", "orderDescription": "x", "orderAmount": ["currency": "THB", "value": "15001"]]
            let inconsistent = try await sandbox.create(changed)
            #expect(Fixture.result(inconsistent)["resultCode"] as? String == "REPEAT_REQ_INCONSISTENT")
            #expect(Fixture.result(inconsistent)["resultStatus"] as? String == "F")
            #expect(try await sandbox.ledger("antom_payments").count == 1)
        }
    }

    @Test func oneOrderIsNeverChargedTwice() async throws {
        try await Fixture.with { sandbox in
            let first = try await open(sandbox, Fixture.session("req-a", order: "order-once"))
            let second = try await open(sandbox, Fixture.session("req-b", order: "order-once"))
            // The newer session superseded the older one: it is closed, its page says the order moved on.
            let old = try await sandbox.inquire(paymentRequestId: "req-a")
            #expect(old["paymentStatus"] as? String == "CANCELLED" && old["paymentResultCode"] as? String == "ORDER_IS_CLOSED")
            let page = String(decoding: try await sandbox.control("GET", "/sandbox/antom/cashier/\(first)/page").body, as: UTF8.self)
            #expect(page.contains("the order moved on to a newer payment"))

            let paid = try await sandbox.act("pay", second)
            #expect(paid.status == 200)
            #expect(try Fixture.object(paid)["paymentStatus"] as? String == "SUCCESS")
            let refused = try await sandbox.act("pay", first)
            #expect(refused.status == 409)
            #expect(try Fixture.object(refused)["paymentStatus"] as? String == "CANCELLED")
            #expect(try await sandbox.act("pay", second).status == 409)

            // A third session for the paid order is refused.
            let third = try await sandbox.create(Fixture.session("req-c", order: "order-once"))
            #expect(Fixture.result(third)["resultCode"] as? String == "ORDER_IS_CLOSED")

            let charges = try await sandbox.ledger("charges").filter { $0["provider"] as? String == "antom" }
            #expect(charges.count == 1)
            #expect(charges.first?["reference"] as? String == "order-once" && charges.first?["amount"] as? Int == 15_000)
            let rows = try await sandbox.ledger("antom_payments")
            #expect(rows.map { $0["status"] as? String } == ["CANCELLED", "SUCCESS"])
            #expect(rows.first?["closed_because"] as? String == "superseded" && rows.first?["superseded_by"] as? String == second)
            #expect(rows.map { $0["moved"] as? Int } == [0, 15_000])
        }
    }

    // MARK: - The cashier

    @Test(arguments: [
        (AntomDisplayMode.singleBank("KBANK"), "THB", ["KBANK"]),
        (.bankCountry("TH"), "THB", ["SCB", "KBANK", "BBL", "KTB", "BAY"]),
        (.bankCountry("ID"), "IDR", ["BCA", "MANDIRI", "BNI", "BRI"]),
        (.bankType(.onlineBanking), "THB", ["SCB", "KBANK", "BBL", "BAY"]),
        (.bankType(.bankTransfer), "IDR", ["BCA", "MANDIRI", "BNI", "BRI"]),
        (.bankType(.mobileBankingApp), "IDR", ["BCA", "MANDIRI", "BRI"]),
    ])
    func eachDisplayModeOffersItsBanks(mode: AntomDisplayMode, currency: String, expected: [String]) async throws {
        try await Fixture.with { sandbox in
            let id = try await open(sandbox, Fixture.session(currency: currency, mode: mode))
            let response = try await sandbox.control("GET", "/sandbox/antom/cashier/\(id)")
            #expect(response.status == 200)
            let cashier = try JSONDecoder().decode(AntomCashier.self, from: response.body)
            #expect(cashier.banks.map(\.bankName) == expected)
            #expect(cashier.banks.map(\.bankName) == AntomBankCatalogue.banks(for: mode, currency: currency, client: .app).map(\.bankName))
            #expect(cashier.displayMode == mode.spelling && cashier.paymentSessionId == id)
            #expect(cashier.paymentAmount == AntomAmount(currency: currency, value: "15000"))
            #expect(cashier.cashierPageUrl == "\(sandbox.baseURL)/sandbox/antom/cashier/\(id)/page")
            for bank in cashier.banks {
                #expect(bank.bankPageUrl == "\(sandbox.baseURL)/sandbox/antom/cashier/\(id)/banks/\(bank.bankName)")
                #expect(try await sandbox.control("GET", "/sandbox/antom/cashier/\(id)/banks/\(bank.bankName)").status == 200)
            }
        }
    }

    @Test func thePagesSpeakTheLocaleAndEscapeWhatTheyShow() async throws {
        try await Fixture.with { sandbox in
            let id = try await open(sandbox, Fixture.session(order: "<script>alert(1)</script>"))
            func page(_ path: String) async throws -> String {
                let response = try await sandbox.control("GET", path)
                #expect(response.status == 200)
                #expect(Fixture.header("Content-Type", in: response)?.hasPrefix("text/html") == true)
                return String(decoding: response.body, as: UTF8.self)
            }
            let english = try await page("/sandbox/antom/cashier/\(id)/page?locale=en_US")
            #expect(english.contains("Choose your bank") && english.contains("150.00 THB") && english.contains("Siam Commercial Bank"))
            #expect(!english.contains("<script>alert") && english.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(english.contains("/sandbox/antom/cashier/\(id)/banks/SCB?locale=en_US"))
            let thai = try await page("/sandbox/antom/cashier/\(id)/page?locale=th_TH")
            #expect(thai.contains("เลือกธนาคารของคุณ") && thai.contains("ธนาคารไทยพาณิชย์") && thai.contains("lang=th"))
            let indonesian = try await page("/sandbox/antom/cashier/\(id)/page?locale=in_ID")
            #expect(indonesian.contains("Pilih bank Anda") && indonesian.contains("lang=id"))
            #expect(try await page("/sandbox/antom/cashier/\(id)/page?locale=fr_FR").contains("Choose your bank"))

            let bank = try await page("/sandbox/antom/cashier/\(id)/banks/KBANK?locale=th_TH")
            #expect(bank.contains("ธนาคารกสิกรไทย") && bank.contains("150.00 THB"))
            #expect(bank.contains("action=\"/sandbox/antom/cashier/\(id)/pay?bank=KBANK&amp;locale=th_TH\""))
            #expect(bank.contains("/fail?bank=KBANK") && bank.contains("/abandon?bank=KBANK"))
            #expect(bank.contains("ชำระเงิน"))
            // A bank this session does not offer, and a session that does not exist.
            #expect(try await sandbox.control("GET", "/sandbox/antom/cashier/\(id)/banks/BCA").status == 404)
            #expect(try await sandbox.control("GET", "/sandbox/antom/cashier/NOPE/page").status == 404)
            #expect(try await sandbox.control("GET", "/sandbox/antom/cashier/NOPE").status == 404)
        }
    }

    @Test func aBrowserFormPostIsSentBackToThePage() async throws {
        try await Fixture.with { sandbox in
            let id = try await open(sandbox, Fixture.session("req-browser"))
            let form = [(name: "Content-Type", value: "application/x-www-form-urlencoded")]
            let paid = try await sandbox.control("POST", "/sandbox/antom/cashier/\(id)/pay?bank=KBANK&locale=th_TH", headers: form)
            #expect(paid.status == 303)
            let location = paid.headers.first { $0.name.lowercased() == "location" }?.value
            #expect(location == "/sandbox/antom/cashier/\(id)/banks/KBANK?locale=th_TH")
            let again = try await sandbox.control("POST", "/sandbox/antom/cashier/\(id)/fail?bank=KBANK&locale=en_US", headers: form)
            #expect(again.status == 409)
            let html = String(decoding: again.body, as: UTF8.self)
            #expect(html.contains("nothing moved") && html.contains("Paid. You can return to the merchant."))
            #expect(html.contains("href=\"https://shop.example/return\""))
            let inquiry = try await sandbox.inquire(paymentRequestId: "req-browser")
            #expect(inquiry["paymentStatus"] as? String == "SUCCESS")
            #expect(try await sandbox.ledger("antom_payments").first?["bank"] as? String == "KBANK")
        }
    }

    // MARK: - Payment states and inquiry

    @Test(arguments: [
        ("pay", "SUCCESS", nil as String?), ("fail", "FAIL", "USER_BALANCE_NOT_ENOUGH"), ("abandon", "CANCELLED", "ORDER_IS_CLOSED"),
    ])
    func theCustomersActEndsInTheInquiredStatus(action: String, status: String, code: String?) async throws {
        try await Fixture.with { sandbox in
            let id = try await open(sandbox, Fixture.session("req-\(action)"))
            let answer = try await sandbox.act(action, id, bank: action == "abandon" ? nil : "KBANK")
            #expect(answer.status == 200)
            let outcome = try Fixture.object(answer)
            #expect(outcome["paymentRequestId"] as? String == "req-\(action)" && outcome["paymentStatus"] as? String == status)

            let inquiry = try await sandbox.inquire(paymentRequestId: "req-\(action)")
            #expect(Fixture.result(inquiry)["resultStatus"] as? String == "S")
            #expect(inquiry["paymentStatus"] as? String == status)
            #expect(inquiry["paymentResultCode"] as? String == code)
            #expect(inquiry["paymentId"] as? String == outcome["paymentId"] as? String)
            if action == "abandon" {
                #expect(inquiry["paymentId"] == nil && inquiry["paymentTime"] == nil)
            } else {
                let paymentID = try #require(inquiry["paymentId"] as? String)
                #expect(paymentID.hasPrefix("20270115") && paymentID.count == 32)
                #expect(inquiry["paymentTime"] as? String == AntomTime.string(sandbox.now))
            }
            // Decided: the customer can no longer act, and nothing moves.
            for again in ["pay", "fail", "abandon"] {
                let refused = try await sandbox.act(again, id)
                #expect(refused.status == 409)
                #expect(Fixture.result(try Fixture.object(refused))["resultCode"] as? String == "ORDER_IS_CLOSED")
            }
            #expect(try await sandbox.inquire(paymentRequestId: "req-\(action)")["paymentStatus"] as? String == status)
            #expect(try await sandbox.ledger("charges").filter { $0["provider"] as? String == "antom" }.count == (action == "pay" ? 1 : 0))
        }
    }

    @Test func inquiryByPaymentIdWinsOverPaymentRequestId() async throws {
        try await Fixture.with { sandbox in
            let first = try await open(sandbox, Fixture.session("req-first"))
            let second = try await open(sandbox, Fixture.session("req-second"))
            _ = try await sandbox.act("pay", first)
            let paymentID = try #require(try Fixture.object(try await sandbox.act("pay", second))["paymentId"] as? String)

            let both = try await sandbox.inquire(paymentRequestId: "req-first", paymentId: paymentID)
            #expect(both["paymentRequestId"] as? String == "req-second" && both["paymentId"] as? String == paymentID)
            let byID = try await sandbox.inquire(paymentId: paymentID)
            #expect(byID["paymentRequestId"] as? String == "req-second")
            // An unknown paymentId wins too: it is not found, whatever the paymentRequestId.
            let unknown = try await sandbox.inquire(paymentRequestId: "req-first", paymentId: "20270115000000000000000000000000")
            #expect(Fixture.result(unknown)["resultCode"] as? String == "ORDER_NOT_EXIST")
            #expect(Fixture.result(unknown)["resultMessage"] as? String == "The order does not exist.")
            let neither = try await sandbox.inquire()
            #expect(Fixture.result(neither)["resultCode"] as? String == "PARAM_ILLEGAL")
        }
    }

    @Test func anUnpaidSessionPastItsExpiryIsCancelled() async throws {
        let clock = ManualClock()
        try await Fixture.with(clock: clock, requestLifetime: 900) { sandbox in
            let expiry = AntomTime.string(clock.now.addingTimeInterval(600))
            let answer = try await sandbox.create(Fixture.session("req-expiring", extra: ["paymentSessionExpiryTime": expiry]))
            #expect(answer["paymentSessionExpiryTime"] as? String == expiry)
            let id = try #require(answer["paymentSessionId"] as? String)
            // Without a requested expiry the sandbox's request lifetime bounds it.
            let capped = try await sandbox.create(Fixture.session("req-capped"))
            #expect(capped["paymentSessionExpiryTime"] as? String == AntomTime.string(clock.now.addingTimeInterval(900)))

            clock.advance(by: 599)
            #expect(try await sandbox.inquire(paymentRequestId: "req-expiring")["paymentStatus"] as? String == "PROCESSING")
            clock.advance(by: 1)
            let expired = try await sandbox.inquire(paymentRequestId: "req-expiring")
            #expect(expired["paymentStatus"] as? String == "CANCELLED" && expired["paymentResultCode"] as? String == "ORDER_IS_CLOSED")
            #expect(try await sandbox.act("pay", id).status == 409)
            let page = String(decoding: try await sandbox.control("GET", "/sandbox/antom/cashier/\(id)/page").body, as: UTF8.self)
            #expect(page.contains("its time ran out before it was paid"))
            #expect(try await sandbox.ledger("antom_payments").first?["closed_because"] as? String == "expired")
        }
    }

    @Test func theGenericCustomerRouteApprovesDeclinesAndAbandonsByEitherId() async throws {
        try await Fixture.with { sandbox in
            let id = try await open(sandbox, Fixture.session("req-approve", mode: .bankType(.onlineBanking)))
            let approved = try await sandbox.control("POST", "/sandbox/customer-requests/req-approve/approve")
            #expect(approved.status == 200)
            #expect(try Fixture.object(approved)["paymentStatus"] as? String == "SUCCESS")
            #expect(try await sandbox.ledger("antom_payments").first?["bank"] as? String == "SCB")
            #expect(try await sandbox.control("POST", "/sandbox/customer-requests/\(id)/decline").status == 409)

            let other = try await open(sandbox, Fixture.session("req-decline"))
            let declined = try await sandbox.control("POST", "/sandbox/customer-requests/\(other)/decline")
            #expect(try Fixture.object(declined)["paymentStatus"] as? String == "FAIL")
            #expect(try await sandbox.control("POST", "/sandbox/customer-requests/nothing-by-this-id/approve").status == 404)

            _ = try await open(sandbox, Fixture.session("req-abandon"))
            let abandoned = try await sandbox.control("POST", "/sandbox/customer-requests/req-abandon/abandon")
            #expect(try Fixture.object(abandoned)["paymentStatus"] as? String == "CANCELLED")
            #expect(try await sandbox.inquire(paymentRequestId: "req-abandon")["paymentResultCode"] as? String == "ORDER_IS_CLOSED")
        }
    }

    // MARK: - Notifications

    @Test func aDecidedPaymentIsNotifiedSignedToTheNotifyURL() async throws {
        // The first answer is 200 without Antom's acknowledgement: not delivered, so it is sent again.
        try await AntomNotifyReceiver.with(reply: { call in call == 1 ? (200, "OK") : (200, AntomNotifyReceiver.acknowledgement) }) { receiver in
            try await Fixture.with { sandbox in
                let id = try await open(sandbox, Fixture.session("req-notify", order: "order-notify", notifyURL: receiver.url))
                let paymentID = try #require(try Fixture.object(try await sandbox.act("pay", id))["paymentId"] as? String)
                let deliveries = await receiver.wait { $0.count >= 2 }
                #expect(deliveries.count == 2)
                let delivery = try #require(deliveries.last)
                #expect(delivery.isSigned())
                #expect(delivery.headers["client-id"] == Fixture.clientID)
                #expect(delivery.headers["request-time"] == AntomTime.string(sandbox.now))
                #expect(delivery.headers["content-type"]?.hasPrefix("application/json") == true)
                let notification = try JSONDecoder().decode(AntomNotifyPayment.self, from: delivery.body)
                #expect(notification.notifyType == "PAYMENT_RESULT" && notification.result == .success)
                #expect(notification.paymentRequestId == "req-notify" && notification.paymentId == paymentID)
                #expect(notification.paymentAmount == AntomAmount(currency: "THB", value: "15000"))
                #expect(notification.paymentCreateTime == AntomTime.string(sandbox.now) && notification.paymentTime == AntomTime.string(sandbox.now))

                let row = try await waitForLedger(sandbox) { ($0.first?["notifications"] as? [[String: Any]])?.first?["outcome"] as? String == "delivered" }
                let record = try #require((row.first?["notifications"] as? [[String: Any]])?.first)
                #expect(record["attempts"] as? Int == 2 && record["notify_type"] as? String == "PAYMENT_RESULT" && record["signed_with"] as? String == "sandbox")
            }
        }
    }

    @Test func failuresAndClosuresAreNotifiedWithTheirReason() async throws {
        try await AntomNotifyReceiver.with { receiver in
            try await Fixture.with { sandbox in
                let failed = try await open(sandbox, Fixture.session("req-fail", notifyURL: receiver.url))
                _ = try await sandbox.act("fail", failed)
                let left = try await open(sandbox, Fixture.session("req-left", notifyURL: receiver.url))
                _ = try await sandbox.act("abandon", left)
                let deliveries = await receiver.wait { $0.count >= 2 }
                let results = try deliveries.map { try JSONDecoder().decode(AntomNotifyPayment.self, from: $0.body) }
                let byRequest = Dictionary(uniqueKeysWithValues: results.map { ($0.paymentRequestId, $0) })
                #expect(byRequest["req-fail"]?.result.resultCode == "USER_BALANCE_NOT_ENOUGH" && byRequest["req-fail"]?.result.resultStatus == "F")
                #expect(byRequest["req-left"]?.result.resultCode == "ORDER_IS_CLOSED" && byRequest["req-left"]?.paymentId == nil)
                #expect(deliveries.allSatisfy { $0.isSigned() })
            }
        }
    }

    // MARK: - Magic amounts

    @Test func magic8001IsPendingThenPaid() async throws {
        try await AntomNotifyReceiver.with { receiver in
            // 3 sandbox seconds at 10× pass in 0.3 s of real time.
            try await Fixture.with(timeScale: 10) { sandbox in
                let id = try await open(sandbox, Fixture.session("req-8001", order: "order-8001", value: AntomMagic.pendingThenPaid, notifyURL: receiver.url))
                let clock = ContinuousClock()
                let payAsked = clock.now
                let paid = try Fixture.object(try await sandbox.act("pay", id))
                #expect(paid["paymentStatus"] as? String == "PENDING")
                let status = try await sandbox.inquire(paymentRequestId: "req-8001")["paymentStatus"] as? String
                // Pending while the bank takes its 3 s; a loaded machine may ask only after them.
                if clock.now - payAsked < .milliseconds(250) {
                    #expect(status == "PENDING")
                } else {
                    #expect(status == "PENDING" || status == "SUCCESS")
                }
                // The bank has paid: the order cannot be paid again meanwhile.
                let again = try await sandbox.create(Fixture.session("req-8001-b", order: "order-8001"))
                #expect(Fixture.result(again)["resultCode"] as? String == "ORDER_IS_CLOSED")

                let deliveries = await receiver.wait { $0.count >= 2 }
                let notices = try deliveries.map { try JSONDecoder().decode(AntomNotifyPayment.self, from: $0.body) }
                // Sent in that order, 0.3 s apart; separate deliveries may arrive in either order on
                // a starved machine (as Antom's may: merchants go by the type, and inquire).
                #expect(notices.map(\.notifyType).sorted() == ["PAYMENT_PENDING", "PAYMENT_RESULT"])
                let final = try #require(notices.first { $0.notifyType == "PAYMENT_RESULT" })
                #expect(final.result == .success && final.paymentId == paid["paymentId"] as? String)
                let inquiry = try await sandbox.inquire(paymentRequestId: "req-8001")
                #expect(inquiry["paymentStatus"] as? String == "SUCCESS" && inquiry["paymentId"] as? String == paid["paymentId"] as? String)
            }
        }
    }

    @Test func magic8001IsConfirmedLazilyWhenTheSandboxClockPasses() async throws {
        let clock = ManualClock()
        // At a time scale of 1e-4 the timer would wait for 8 hours: only the clock can confirm it.
        try await Fixture.with(clock: clock, timeScale: 0.000_1) { sandbox in
            let id = try await open(sandbox, Fixture.session("req-8001-lazy", value: AntomMagic.pendingThenPaid))
            _ = try await sandbox.act("pay", id)
            clock.advance(by: 29_999)
            #expect(try await sandbox.inquire(paymentRequestId: "req-8001-lazy")["paymentStatus"] as? String == "PENDING")
            clock.advance(by: 1)
            #expect(try await sandbox.inquire(paymentRequestId: "req-8001-lazy")["paymentStatus"] as? String == "SUCCESS")
        }
    }

    @Test func magic8002NotificationsAreSignedWithAWrongKey() async throws {
        try await AntomNotifyReceiver.with { receiver in
            try await Fixture.with { sandbox in
                let id = try await open(sandbox, Fixture.session("req-8002", value: AntomMagic.notificationWrongKey, notifyURL: receiver.url))
                _ = try await sandbox.act("pay", id)
                let delivery = try #require(await receiver.wait { !$0.isEmpty }.first)
                #expect(delivery.headers["signature"]?.hasPrefix("algorithm=RSA256,keyVersion=1,signature=") == true)
                #expect(!delivery.isSigned(), "a client verifying with the sandbox's key must reject it")
                #expect(try await sandbox.inquire(paymentRequestId: "req-8002")["paymentStatus"] as? String == "SUCCESS")
                let row = try await waitForLedger(sandbox) { ($0.first?["notifications"] as? [[String: Any]])?.first?["outcome"] as? String == "delivered" }
                #expect((row.first?["notifications"] as? [[String: Any]])?.first?["signed_with"] as? String == "wrong-key")
            }
        }
    }

    @Test func magic8003NotifiesFailWhileInquirySaysSuccess() async throws {
        try await AntomNotifyReceiver.with { receiver in
            try await Fixture.with { sandbox in
                let id = try await open(sandbox, Fixture.session("req-8003", value: AntomMagic.notificationDisagrees, notifyURL: receiver.url))
                _ = try await sandbox.act("pay", id)
                let delivery = try #require(await receiver.wait { !$0.isEmpty }.first)
                #expect(delivery.isSigned())
                let notification = try JSONDecoder().decode(AntomNotifyPayment.self, from: delivery.body)
                #expect(notification.result.resultCode == "PROCESS_FAIL" && notification.result.resultStatus == "F")
                #expect(try await sandbox.inquire(paymentRequestId: "req-8003")["paymentStatus"] as? String == "SUCCESS")
            }
        }
    }

    @Test func magic8004IsRefusedByRisk() async throws {
        try await Fixture.with { sandbox in
            let id = try await open(sandbox, Fixture.session("req-8004", value: AntomMagic.riskReject))
            #expect(try Fixture.object(try await sandbox.act("pay", id))["paymentResultCode"] as? String == "RISK_REJECT")
            let inquiry = try await sandbox.inquire(paymentRequestId: "req-8004")
            #expect(inquiry["paymentStatus"] as? String == "FAIL" && inquiry["paymentResultCode"] as? String == "RISK_REJECT")
            #expect(try await sandbox.ledger("charges").filter { $0["provider"] as? String == "antom" }.isEmpty)
        }
    }

    @Test func magic81xxBreakWhatTheComponentLoads() async throws {
        try await Fixture.with { sandbox in
            let unreadable = try await sandbox.create(Fixture.session(value: AntomMagic.unreadableSessionData))
            #expect(AntomSessionData(encoded: try #require(unreadable["paymentSessionData"] as? String)) == nil)

            let unavailable = try await sandbox.create(Fixture.session(value: AntomMagic.cashierUnavailable))
            let unavailableData = try #require(Self.sessionData(unavailable))
            #expect(try await sandbox.control("GET", String(unavailableData.cashierUrl.dropFirst(sandbox.baseURL.count))).status == 503)

            let malformed = try await sandbox.create(Fixture.session(value: AntomMagic.cashierMalformed))
            let malformedData = try #require(Self.sessionData(malformed))
            let cashier = try await sandbox.control("GET", String(malformedData.cashierUrl.dropFirst(sandbox.baseURL.count)))
            #expect(cashier.status == 200)
            #expect((try? JSONDecoder().decode(AntomCashier.self, from: cashier.body)) == nil)

            let production = try await sandbox.create(Fixture.session(value: AntomMagic.productionSessionData))
            #expect(AntomSessionData(encoded: try #require(production["paymentSessionData"] as? String))?.environment == "prod")
        }
    }

    @Test func magic8201CreatesNothingAnd8202IsTrafficLimitedOnce() async throws {
        try await Fixture.with { sandbox in
            for _ in 1...2 {
                let unknown = try await sandbox.create(Fixture.session("req-8201", value: AntomMagic.createUnknown))
                #expect(Fixture.result(unknown)["resultCode"] as? String == "UNKNOWN_EXCEPTION" && Fixture.result(unknown)["resultStatus"] as? String == "U")
            }
            #expect(try await sandbox.ledger("antom_payments").isEmpty)

            _ = try await open(sandbox, Fixture.session("req-8202", value: AntomMagic.inquiryTrafficLimited))
            let limited = try await sandbox.inquire(paymentRequestId: "req-8202")
            #expect(Fixture.result(limited)["resultCode"] as? String == "REQUEST_TRAFFIC_EXCEED_LIMIT" && Fixture.result(limited)["resultStatus"] as? String == "U")
            #expect(try await sandbox.inquire(paymentRequestId: "req-8202")["paymentStatus"] as? String == "PROCESSING")
        }
    }

    // MARK: - Faults and bounds

    @Test func faultsAndRefusalsAnswerInAntomsShape() async throws {
        try await Fixture.with { sandbox in
            try await sandbox.sandbox.faults.add(try FaultRule(spec: "POST /ams/ 503"))
            let fault = try await sandbox.api(Fixture.createPath, json: Fixture.session())
            #expect(fault.status == 503)
            #expect(Fixture.result(try Fixture.object(fault))["resultStatus"] as? String == "U")

            let refused = try await sandbox.control("GET", Fixture.createPath)
            #expect(refused.status == 405)
            #expect(Fixture.result(try Fixture.object(refused))["resultCode"] as? String == "INVALID_API")
        }
    }

    @Test func theSessionStoreIsBoundedAndBodiesAreLimited() async throws {
        var limits = SandboxLimits()
        limits.maxStoredRequests = 3
        limits.maxBodyBytes = 2_048
        try await Fixture.with(limits: limits) { sandbox in
            let decided = try await open(sandbox, Fixture.session("req-0"))
            _ = try await sandbox.act("fail", decided)
            for index in 1...3 { _ = try await open(sandbox, Fixture.session("req-\(index)")) }
            // The decided session went first, though it was not the oldest open one.
            let rows = try await sandbox.ledger("antom_payments")
            #expect(rows.map { $0["payment_request_id"] as? String } == ["req-1", "req-2", "req-3"])
            _ = try await open(sandbox, Fixture.session("req-4"))
            #expect(try await sandbox.ledger("antom_payments").map { $0["payment_request_id"] as? String } == ["req-2", "req-3", "req-4"])

            var big = Fixture.session()
            big["order"] = ["referenceOrderId": "o", "orderDescription": String(repeating: "x", count: 3_000), "orderAmount": ["currency": "THB", "value": "15000"]]
            let tooLarge = try await sandbox.api(Fixture.createPath, json: big)
            #expect(tooLarge.status == 413)
            #expect(Fixture.result(try Fixture.object(tooLarge))["resultStatus"] as? String == "F")
        }
    }

    // MARK: - The official SDK

    /// global-open-sdk-python 1.7.1, unchanged but for its transport (it always opens HTTPS on
    /// port 443): it signs, sends, and verifies the sandbox's answers itself.
    @Test func theOfficialPythonSDKCreatesAndInquiresAgainstTheSandbox() async throws {
        let python = ConformanceScript.root.appendingPathComponent(".build/python/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("The Python venv is missing (\(python)): run `make test` (or .ci/ensure-packages.sh --with-python).")
            return
        }
        try await Fixture.with(clock: nil) { sandbox in
            let script = """
                import http.client, json, sys, urllib.parse
                from com.alipay.ams.api import default_alipay_client as module
                from com.alipay.ams.api.default_alipay_client import DefaultAlipayClient
                from com.alipay.ams.api.exception.exception import AlipayApiException
                from com.alipay.ams.api.model.amount import Amount
                from com.alipay.ams.api.model.order import Order
                from com.alipay.ams.api.model.payment_method import PaymentMethod
                from com.alipay.ams.api.model.product_code_type import ProductCodeType
                from com.alipay.ams.api.request.pay.alipay_create_session_request import AlipayCreateSessionRequest
                from com.alipay.ams.api.request.pay.alipay_pay_query_request import AlipayPayQueryRequest
                base, client_id, private_key, public_key, other_public_key = sys.argv[1:]

                def do_post(url, headers=None, req_body=None, charset="UTF-8"):
                    parsed = urllib.parse.urlparse(url)
                    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
                    connection.request("POST", parsed.path, body=req_body.encode(charset), headers=headers)
                    response = connection.getresponse()
                    if response.status != 200:
                        raise AlipayApiException("invalid http status " + str(response.status))
                    result = (response.getheaders(), response.read())
                    connection.close()
                    return result
                module.do_post = do_post

                client = DefaultAlipayClient(base, client_id, private_key, public_key)
                request = AlipayCreateSessionRequest()
                request.product_code = ProductCodeType.CASHIER_PAYMENT
                request.payment_request_id = "sdk-req-1"
                amount = Amount("THB", "15000")
                request.payment_amount = amount
                order = Order()
                order.reference_order_id = "sdk-order-1"
                order.order_description = "SDK order"
                order.order_amount = amount
                request.order = order
                method = PaymentMethod()
                method.payment_method_type = "BANK"
                method.payment_method_meta_data = {"paymentMethodRegion": "TH"}
                request.payment_method = method
                request.payment_redirect_url = "https://shop.example/return"
                created = json.loads(client.execute(request))
                print(created["result"]["resultCode"], created["paymentSessionId"])
                print(json.loads(client.execute(request))["paymentSessionId"])
                query = AlipayPayQueryRequest()
                query.payment_request_id = "sdk-req-1"
                print(json.loads(client.execute(query))["paymentStatus"])
                query.payment_request_id = "sdk-unknown"
                print(json.loads(client.execute(query))["result"]["resultCode"])
                try:  # a key the sandbox does not sign with: the SDK must refuse the answer
                    other = DefaultAlipayClient(base, client_id, private_key, other_public_key)
                    other.execute(query)
                    print("accepted")
                except Exception:
                    print("refused")
                """
            let child = try ChildProcess([
                python, "-c", script, sandbox.baseURL, AntomSandboxCredentials.clientID, AntomSandboxCredentials.clientPrivateKey,
                AntomSandboxCredentials.sandboxPublicKey, AntomSandboxCredentials.clientPublicKey,
            ])
            let status = await child.exit(timeout: 60)
            let lines = child.stdout.split(separator: "\n").map(String.init)
            #expect(status == 0, "\(child.stdout)\(child.stderr)")
            #expect(lines.count == 5, "\(child.stdout)\(child.stderr)")
            guard lines.count == 5 else { return }
            let created = lines[0].split(separator: " ").map(String.init)
            #expect(created.first == "SUCCESS" && created.count == 2)
            #expect(lines[1] == created.last, "the same request replays the same session")
            #expect(lines[2] == "PROCESSING")
            #expect(lines[3] == "ORDER_NOT_EXIST")
            #expect(lines[4] == "refused")
        }
    }

    private static func sessionData(_ answer: [String: Any]) -> AntomSessionData? {
        (answer["paymentSessionData"] as? String).flatMap(AntomSessionData.init(encoded:))
    }

    /// Polls the ledger's `antom_payments` until `condition` holds (or 10 s pass): its rows.
    private func waitForLedger(_ sandbox: Fixture, until condition: ([[String: Any]]) -> Bool) async throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let rows = try await sandbox.ledger("antom_payments")
            if condition(rows) || Date() > deadline { return rows }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
