import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing

/// Adyen's sessions flow over a real socket: `POST /v71/sessions` and its result, and the
/// component's client-key calls (`/checkoutshopper/v1/sessions/{id}/setup|payments|paymentDetails`)
/// with sessionData that changes with every answer, storePaymentMethodMode, the redirect action
/// (magic 70.06) completed by details, client key against API key, and idempotency.
@Suite struct AdyenSessionTests {
    typealias Fixture = AdyenTestSandbox
    static let clientKey = AdyenClientKey.sandbox

    // MARK: - Create and set up

    @Test func createAnswers201WithIdSessionDataAndExpiry() async throws {
        try await Fixture.with { sandbox in
            let response = try await sandbox.adyen("POST", "/v71/sessions", Self.session(4505, extra: ["countryCode": "US", "channel": "iOS"]))
            #expect(response.status == 201)
            let session = try JSONDecoder().decode(AdyenSessionResponse.self, from: response.body)
            #expect(session.id.hasPrefix("CS") && session.id.count == 18)
            #expect(session.sessionData?.isEmpty == false)
            #expect(session.amount == AdyenAmount(currency: "USD", value: 4505))
            #expect(session.merchantAccount == Fixture.merchant && session.reference == "order-1")
            #expect(session.countryCode == "US" && session.channel == "iOS" && session.mode == "embedded")
            let expires = try #require(ISO8601DateFormatter().date(from: session.expiresAt))
            #expect(abs(expires.timeIntervalSinceNow - 3_600) < 60, "a session expires an hour after creation by default")
        }
    }

    @Test func createIsValidatedAsPaymentsAre() async throws {
        try await Fixture.with { sandbox in
            var noReturn = Self.session(100)
            noReturn.removeValue(forKey: "returnUrl")
            let missing = try await sandbox.adyen("POST", "/v71/sessions", noReturn)
            #expect(missing.status == 422)
            #expect(try Fixture.object(missing)["errorCode"] as? String == "14_030")

            let mode = try await sandbox.adyen("POST", "/v71/sessions", Self.session(100, extra: ["storePaymentMethodMode": "always"]))
            #expect(mode.status == 422)
            #expect((try Fixture.object(mode)["message"] as? String)?.contains("must be one of disabled, askForConsent, enabled") == true)

            let late = ISO8601DateFormatter().string(from: Date().addingTimeInterval(2 * 86_400))
            let tooLate = try await sandbox.adyen("POST", "/v71/sessions", Self.session(100, extra: ["expiresAt": late]))
            #expect(tooLate.status == 422)

            let merchant = try await sandbox.adyen("POST", "/v71/sessions", Self.session(100, extra: ["merchantAccount": "UnknownMerchant"]))
            #expect(merchant.status == 403)
            #expect(try Fixture.object(merchant)["errorCode"] as? String == "901")

            let malformed = try await sandbox.adyen("POST", "/v71/sessions", rawBody: "{\"amount\": 12")
            #expect(malformed.status == 400)
            #expect(try Fixture.object(malformed)["errorCode"] as? String == "702")
        }
    }

    @Test func setupListsCashAppPayAndGivesNewSessionData() async throws {
        try await Fixture.with { sandbox in
            let session = try await sandbox.createSession(1200)
            let response = try await sandbox.component(.setup, session.id, ["sessionData": session.sessionData!])
            #expect(response.status == 200)
            let setup = try JSONDecoder().decode(AdyenSessionSetupResponse.self, from: response.body)
            #expect(setup.sessionData != session.sessionData)
            #expect(setup.amount == AdyenAmount(currency: "USD", value: 1200))
            #expect(setup.paymentMethods.cashApp?.configuration?.clientId == AdyenCashAppConfiguration.clientID)
            #expect(setup.paymentMethods.cashApp?.configuration?.scopeId == AdyenCashAppConfiguration.scopeID)
            #expect(setup.configuration?.enableStoreDetails == false)
            #expect(setup.paymentMethods.storedPaymentMethods == nil, "a session without a shopperReference offers no stored methods")
        }
    }

    // MARK: - Pay, details, result

    @Test func payingWithAGrantCompletesTheSessionAndSendsAuthorisation() async throws {
        try await Fixture.with { sandbox in
            let receiver = try AdyenWebhookReceiver()
            try await sandbox.registerReceiver(receiver)
            let session = try await sandbox.createSession(2500, reference: "order-session")
            let setupData = try await sandbox.setUp(session)
            let grant = try await sandbox.grant(2500)
            let paid = try await sandbox.payInSession(session.id, sessionData: setupData, ["grantId": grant])
            #expect(paid.resultCode == "Authorised")
            #expect(paid.sessionData != setupData)
            let result = try await sandbox.sessionResult(session.id, paid.sessionResult ?? "")
            #expect(result.sessionStatus == .completed)
            let psp = try #require(result.payments?.first?.pspReference)
            #expect(result.payments?.first?.resultCode == "Authorised")
            let items = await receiver.wait { $0.contains { AdyenAPITests.item($0)?["pspReference"] as? String == psp } }
            let item = try #require(items.compactMap(AdyenAPITests.item).first { $0["pspReference"] as? String == psp })
            #expect(item["eventCode"] as? String == "AUTHORISATION" && item["success"] as? String == "true")
            #expect(item["merchantReference"] as? String == "order-session")
            // The same grant cannot pay a second session: the grant checks are /payments' own.
            let other = try await sandbox.createSession(2500)
            let again = try await sandbox.payInSession(other.id, sessionData: try await sandbox.setUp(other), ["grantId": grant])
            #expect(again.resultCode == "Refused")
            #expect(again.refusalReason?.hasPrefix("grant already used") == true)
        }
    }

    @Test func aRedirectActionIsCompletedByTheSessionsPaymentDetails() async throws {
        try await Fixture.with { sandbox in
            let session = try await sandbox.createSession(AdyenMagic.redirectValue)
            let paid = try await sandbox.payInSession(session.id, sessionData: try await sandbox.setUp(session), ["grantId": try await sandbox.grant(AdyenMagic.redirectValue)])
            #expect(paid.resultCode == "RedirectShopper")
            let action = try #require(paid.action)
            #expect(action.type == "redirect" && action.method == "GET" && action.paymentMethodType == "cashapp")
            #expect(try await sandbox.sessionResult(session.id, paid.sessionResult ?? "").sessionStatus == .paymentPending)
            let redirectResult = try await sandbox.visit(action)
            let details = try await sandbox.component(
                .paymentDetails, session.id, ["sessionData": paid.sessionData, "details": ["redirectResult": redirectResult]])
            #expect(details.status == 200)
            let completed = try JSONDecoder().decode(AdyenSessionPaymentResponse.self, from: details.body)
            #expect(completed.resultCode == "Authorised" && completed.action == nil)
            #expect(try await sandbox.sessionResult(session.id, completed.sessionResult ?? "").sessionStatus == .completed)
        }
    }

    @Test func aRedirectActionIsCompletedByPaymentsDetails() async throws {
        try await Fixture.with { sandbox in
            let value = AdyenMagic.redirectValue
            let paid = try Fixture.object(try await sandbox.adyen("POST", "/v71/payments", Fixture.payment(value, ["grantId": try await sandbox.grant(value)])))
            #expect(paid["resultCode"] as? String == "RedirectShopper")
            let action = try JSONDecoder().decode(
                AdyenPaymentResponse.Action.self, from: JSONSerialization.data(withJSONObject: try #require(paid["action"] as? [String: Any])))
            #expect((try await sandbox.ledger()["adyen_payments"] as? [[String: Any]])?.isEmpty == true, "no money moved before the action is completed")
            let details = try Fixture.object(
                try await sandbox.adyen("POST", "/v71/payments/details", ["details": ["redirectResult": try await sandbox.visit(action)]]))
            #expect(details["resultCode"] as? String == "Authorised")
            #expect(details["pspReference"] as? String == paid["pspReference"] as? String)
            #expect((try await sandbox.ledger()["adyen_payments"] as? [[String: Any]])?.count == 1)
            let forged = try await sandbox.adyen("POST", "/v71/payments/details", ["details": ["redirectResult": Self.forged(paid["pspReference"] as! String)]])
            #expect(forged.status == 422)
        }
    }

    @Test(arguments: [
        (AdyenMagic.refusedValue, AdyenSessionStatus.refused), (AdyenMagic.cancelledValue, .canceled), (AdyenMagic.errorValue, .refused),
        (AdyenMagic.receivedThenAuthorisedValue, .paymentPending), (1999, .completed),
    ])
    func theResultFollowsThePayment(value: Int, status: AdyenSessionStatus) async throws {
        try await Fixture.with { sandbox in
            let session = try await sandbox.createSession(value)
            #expect(try await sandbox.sessionResult(session.id, "none-yet").sessionStatus == .active)
            let paidAt = Date()
            let paid = try await sandbox.payInSession(session.id, sessionData: try await sandbox.setUp(session), ["grantId": try await sandbox.grant(value)])
            let first = try await sandbox.sessionResult(session.id, paid.sessionResult ?? "").sessionStatus
            // A pending payment is decided by webhook after the fixture's `asyncResultDelay`; on a loaded
            // machine that may have passed already, and the session then follows it.
            let decidedMeanwhile = status == .paymentPending && Date().timeIntervalSince(paidAt) >= Fixture.asyncResultDelay
            #expect(first == status || (decidedMeanwhile && first == .completed))
            if status == .paymentPending {
                // Decided by the AUTHORISATION webhook: the session follows it.
                let deadline = Date().addingTimeInterval(10)
                var now = first ?? .paymentPending
                while now == .paymentPending, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                    now = try #require(try await sandbox.sessionResult(session.id, paid.sessionResult ?? "").sessionStatus)
                }
                #expect(now == .completed)
            }
            if status != .paymentPending {
                // A decided session takes no second payment.
                let again = try await sandbox.component(
                    .payments, session.id, ["sessionData": paid.sessionData, "paymentMethod": ["type": "cashapp", "grantId": "GRG_x"]])
                #expect(again.status == 422)
            }
        }
    }

    @Test func anExpiredSessionIsExpiredAndTakesNoCalls() async throws {
        try await Fixture.with { sandbox in
            let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-5))
            let session = try JSONDecoder().decode(
                AdyenSessionResponse.self, from: try await sandbox.adyen("POST", "/v71/sessions", Self.session(100, extra: ["expiresAt": past])).body)
            #expect(try await sandbox.sessionResult(session.id, "any").sessionStatus == .expired)
            let setup = try await sandbox.component(.setup, session.id, ["sessionData": session.sessionData!])
            #expect(setup.status == 422)
            #expect((try Fixture.object(setup)["message"] as? String)?.contains("expired") == true)
        }
    }

    @Test func theResultNeedsSessionResultAndAKnownSession() async throws {
        try await Fixture.with { sandbox in
            let session = try await sandbox.createSession(100)
            #expect(try await sandbox.adyen("GET", "/v71/sessions/\(session.id)").status == 422)
            #expect(try await sandbox.adyen("GET", "/v71/sessions/CS0000000000000000?sessionResult=x").status == 422)
            #expect(try await sandbox.adyen("GET", "/v71/sessions/\(session.id)?sessionResult=x", apiKey: Self.clientKey).status == 401)
        }
    }

    // MARK: - sessionData

    @Test func onlyTheLatestSessionDataIsTaken() async throws {
        try await Fixture.with { sandbox in
            let session = try await sandbox.createSession(3000)
            let first = session.sessionData!
            let setup = try await sandbox.component(.setup, session.id, ["sessionData": first])
            let latest = try JSONDecoder().decode(AdyenSessionSetupResponse.self, from: setup.body).sessionData
            // The same call again (a retry after a lost answer) gets the same answer.
            let retried = try await sandbox.component(.setup, session.id, ["sessionData": first])
            #expect(retried.status == 200 && retried.body == setup.body)
            // Any other call with the older sessionData is stale.
            let grant = try await sandbox.grant(3000)
            let stale = try await sandbox.component(.payments, session.id, ["sessionData": first, "paymentMethod": ["type": "cashapp", "grantId": grant]])
            #expect(stale.status == 422)
            #expect((try Fixture.object(stale)["message"] as? String)?.hasPrefix("Invalid sessionData") == true)
            // A refused call leaves the sessionData it sent the latest.
            let refused = try await sandbox.component(.payments, session.id, ["sessionData": latest])
            #expect(refused.status == 422)
            let paid = try await sandbox.payInSession(session.id, sessionData: latest, ["grantId": grant])
            #expect(paid.resultCode == "Authorised")
            // The payment sent again as it was (its answer lost): the same answer, nothing paid twice.
            let retriedPayment = try await sandbox.payInSession(session.id, sessionData: latest, ["grantId": grant])
            #expect(retriedPayment == paid)
            let old = try await sandbox.component(.paymentDetails, session.id, ["sessionData": latest, "details": [String: String]()])
            #expect(old.status == 422)
            let made = try await sandbox.component(.paymentDetails, session.id, ["sessionData": paid.sessionData, "details": [String: String]()])
            #expect(made.status == 200)
            #expect(try JSONDecoder().decode(AdyenSessionPaymentResponse.self, from: made.body).resultCode == "Authorised")
            #expect((try await sandbox.ledger()["adyen_payments"] as? [[String: Any]])?.count == 1)
        }
    }

    // MARK: - storePaymentMethodMode

    @Test(arguments: [
        (AdyenStorePaymentMethodMode.disabled, true, false), (.askForConsent, false, false), (.askForConsent, true, true), (.enabled, false, true),
    ])
    func storingFollowsTheMode(mode: AdyenStorePaymentMethodMode, shopperAsks: Bool, stored: Bool) async throws {
        try await Fixture.with { sandbox in
            let shopper = "shopper-1"
            let session = try await sandbox.createSession(
                800, extra: ["shopperReference": shopper, "storePaymentMethodMode": mode.rawValue, "recurringProcessingModel": "CardOnFile"])
            let setupResponse = try await sandbox.component(.setup, session.id, ["sessionData": session.sessionData!])
            let setup = try JSONDecoder().decode(AdyenSessionSetupResponse.self, from: setupResponse.body)
            #expect(setup.configuration?.enableStoreDetails == (mode == .askForConsent))
            #expect((setup.paymentMethods.storedPaymentMethods == nil) == (mode == .disabled))
            let approved = try await sandbox.approvedRequest([Fixture.oneTime(800), Fixture.onFile])
            let grants = Dictionary(uniqueKeysWithValues: (approved["grants"] as! [[String: Any]]).map { ($0["type"] as! String, $0["id"] as! String) })
            let profile = approved["customer_profile"] as! [String: Any]
            let paidResponse = try await sandbox.component(.payments, session.id, [
                "sessionData": setup.sessionData, "storePaymentMethod": shopperAsks,
                "paymentMethod": [
                    "type": "cashapp", "grantId": grants["ONE_TIME"]!, "onFileGrantId": grants["EXTENDED"]!, "customerId": profile["id"]!,
                    "cashtag": profile["cashtag"]!,
                ],
            ])
            #expect(try JSONDecoder().decode(AdyenSessionPaymentResponse.self, from: paidResponse.body).resultCode == "Authorised")
            let listed = try Fixture.object(
                try await sandbox.adyen("GET", "/v71/storedPaymentMethods?shopperReference=\(shopper)&merchantAccount=\(Fixture.merchant)"))
            let methods = listed["storedPaymentMethods"] as? [[String: Any]] ?? []
            #expect(methods.count == (stored ? 1 : 0))
            guard stored, let id = methods.first?["id"] as? String else { return }
            // The stored method is offered in the shopper's next session and pays with no customer step.
            let next = try await sandbox.createSession(500, extra: ["shopperReference": shopper, "storePaymentMethodMode": mode.rawValue])
            let nextSetup = try JSONDecoder().decode(
                AdyenSessionSetupResponse.self, from: try await sandbox.component(.setup, next.id, ["sessionData": next.sessionData!]).body)
            #expect(nextSetup.paymentMethods.storedPaymentMethods?.map(\.id) == [id])
            let repeatPurchase = try await sandbox.payInSession(next.id, sessionData: nextSetup.sessionData, ["storedPaymentMethodId": id])
            #expect(repeatPurchase.resultCode == "Authorised")
            // A session that disables storing does not offer or take it.
            let disabled = try await sandbox.createSession(500, extra: ["shopperReference": shopper])
            let refused = try await sandbox.component(
                .payments, disabled.id,
                ["sessionData": try await sandbox.setUp(disabled), "paymentMethod": ["type": "cashapp", "storedPaymentMethodId": id]])
            #expect(refused.status == 422)
        }
    }

    // MARK: - Keys and idempotency

    @Test func theClientKeyHostTakesClientKeysOnly() async throws {
        try await Fixture.with { sandbox in
            let session = try await sandbox.createSession(100)
            let body = try JSONSerialization.data(withJSONObject: ["sessionData": session.sessionData!])
            for query in ["", "?clientKey=\(Fixture.apiKey)", "?clientKey=live_ADYENSANDBOXCLIENTKEY0001", "?clientKey=test_short"] {
                let response = try await sandbox.raw("POST", "/checkoutshopper/v1/sessions/\(session.id)/setup\(query)", body: body)
                #expect(response.status == 401, "clientKey query \(query)")
                #expect(try Fixture.object(response)["errorType"] as? String == "security")
            }
            let withAPIKey = try await sandbox.raw(
                "POST", "/checkoutshopper/v1/sessions/\(session.id)/setup?clientKey=\(Self.clientKey)", body: body,
                headers: [(name: "X-API-Key", value: Fixture.apiKey)])
            #expect(withAPIKey.status == 401)
            // And the client key is no API key.
            #expect(try await sandbox.adyen("POST", "/v71/sessions", Self.session(100), apiKey: Self.clientKey).status == 401)
            // Unknown sessions and paths under the client-key host answer in Adyen's shape.
            let unknown = try await sandbox.component(.setup, "CS0000000000000000", ["sessionData": session.sessionData!])
            #expect(unknown.status == 422)
            let noRoute = try await sandbox.raw("POST", "/checkoutshopper/v1/nothing?clientKey=\(Self.clientKey)", body: body)
            #expect(noRoute.status == 404)
            #expect(try Fixture.object(noRoute)["errorCode"] != nil)
        }
    }

    @Test func theSameIdempotencyKeyMakesOneSession() async throws {
        try await Fixture.with { sandbox in
            let body = Self.session(700)
            let first = try await sandbox.adyen("POST", "/v71/sessions", body, idempotencyKey: "session-key-1")
            let again = try await sandbox.adyen("POST", "/v71/sessions", body, idempotencyKey: "session-key-1")
            #expect(first.status == 201 && again.status == 201)
            #expect(try Fixture.object(first)["id"] as? String == (try Fixture.object(again)["id"] as? String))
            let other = try await sandbox.adyen("POST", "/v71/sessions", Self.session(701), idempotencyKey: "session-key-1")
            #expect(other.status == 422)
            #expect(try Fixture.object(other)["errorCode"] as? String == "704")
            let fresh = try await sandbox.adyen("POST", "/v71/sessions", body, idempotencyKey: "session-key-2")
            #expect(try Fixture.object(fresh)["id"] as? String != (try Fixture.object(first)["id"] as? String))
        }
    }

    // MARK: - Helpers

    static func session(_ value: Int, reference: String = "order-1", extra: [String: Any] = [:]) -> [String: Any] {
        var body: [String: Any] = [
            "amount": ["currency": "USD", "value": value], "merchantAccount": Fixture.merchant, "reference": reference,
            "returnUrl": "https://shop.example/return",
        ]
        body.merge(extra) { $1 }
        return body
    }

    /// A redirectResult of the sandbox's shape for `psp` with a secret that is not the payment's.
    static func forged(_ psp: String) -> String {
        Data("\(psp):NOTTHESECRET".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }
}

extension AdyenTestSandbox {
    func createSession(_ value: Int, reference: String = "order-1", extra: [String: Any] = [:]) async throws -> AdyenSessionResponse {
        let response = try await adyen("POST", "/v71/sessions", AdyenSessionTests.session(value, reference: reference, extra: extra))
        try #require(response.status == 201, Comment(rawValue: "POST /v71/sessions answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"))
        return try JSONDecoder().decode(AdyenSessionResponse.self, from: response.body)
    }

    /// A component call with the sandbox's test client key.
    func component(_ call: AdyenSessionPaths.ComponentCall, _ id: String, _ json: [String: Any]) async throws -> ProviderResponse {
        try await raw(
            "POST", AdyenSessionPaths.component(call, sessionID: id, clientKey: AdyenClientKey.sandbox),
            body: JSONSerialization.data(withJSONObject: json))
    }

    func raw(_ method: String, _ path: String, body: Data? = nil, headers: [(name: String, value: String)] = []) async throws -> ProviderResponse {
        try await control(method, path, body.flatMap { try? JSONSerialization.jsonObject(with: $0) }, headers: headers)
    }

    /// The session set up: the sessionData its setup answered.
    func setUp(_ session: AdyenSessionResponse) async throws -> String {
        let response = try await component(.setup, session.id, ["sessionData": session.sessionData!])
        return try JSONDecoder().decode(AdyenSessionSetupResponse.self, from: response.body).sessionData
    }

    func payInSession(_ id: String, sessionData: String, _ method: [String: Any], store: Bool? = nil) async throws -> AdyenSessionPaymentResponse {
        var body: [String: Any] = ["sessionData": sessionData, "paymentMethod": ["type": "cashapp"].merging(method) { $1 }]
        if let store { body["storePaymentMethod"] = store }
        let response = try await component(.payments, id, body)
        try #require(response.status == 200, Comment(rawValue: "session payments answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"))
        return try JSONDecoder().decode(AdyenSessionPaymentResponse.self, from: response.body)
    }

    func sessionResult(_ id: String, _ sessionResult: String) async throws -> AdyenSessionResultResponse {
        let response = try await adyen("GET", "/v71" + AdyenSessionPaths.result(sessionID: id, sessionResult: sessionResult))
        try #require(response.status == 200, Comment(rawValue: "GET /sessions answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"))
        return try JSONDecoder().decode(AdyenSessionResultResponse.self, from: response.body)
    }

    /// The shopper visits a redirect action's page: the redirectResult it sends back to the returnUrl.
    func visit(_ action: AdyenPaymentResponse.Action) async throws -> String {
        let url = try #require(action.url)
        let path = String(url.dropFirst(baseURL.count))
        let response = try await raw("GET", path)
        #expect(response.status == 302)
        let location = try #require(response.headers.first { $0.name.lowercased() == "location" }?.value)
        #expect(location.hasPrefix("https://shop.example/return?redirectResult="))
        return try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "redirectResult" }?.value)
    }
}
