import Foundation
import JWTKit
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// Afterpay's endpoints over a real socket: success and error shapes, the signed JWT, and a
/// capture that never happens twice.
@Suite struct AfterpayAPITests {
    static func checkoutJSON(amount: String = "19.99", confirm: String? = "https://shop.example/confirm", cancel: String? = "https://shop.example/cancel", email: String? = "pat@example.com") -> String {
        var merchant: [String: String] = [:]
        if let confirm { merchant["redirectConfirmUrl"] = confirm }
        if let cancel { merchant["redirectCancelUrl"] = cancel }
        var body: [String: Any] = [
            "amount": ["amount": amount, "currency": "USD"], "merchant": merchant, "isCashAppPay": true,
            "merchantReference": "order-7",
        ]
        if let email { body["consumer"] = ["email": email] }
        return String(decoding: try! JSONSerialization.data(withJSONObject: body), as: UTF8.self)
    }

    private func error(_ response: ProviderResponse) throws -> AfterpayError {
        try JSONDecoder().decode(AfterpayError.self, from: response.body)
    }

    private func token(_ harness: SandboxHarness, amount: String = "19.99") async throws -> String {
        let response = try await harness.afterpay("POST", "/v2/checkouts", json: Self.checkoutJSON(amount: amount))
        #expect(response.status == 201)
        return try JSONDecoder().decode(AfterpayCheckoutResponse.self, from: response.body).token
    }

    /// redirectCheckoutUrl opens a page, not a 404: the checkout, and how this sandbox pays it.
    @Test func redirectCheckoutUrlIsAPage() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay("POST", "/v2/checkouts", json: Self.checkoutJSON())
            let created = try JSONDecoder().decode(AfterpayCheckoutResponse.self, from: response.body)
            #expect(created.redirectCheckoutUrl == "\(harness.baseURL)/sandbox/afterpay/checkout?token=\(created.token)")
            let page = try await harness.raw(method: "GET", path: String(created.redirectCheckoutUrl.dropFirst(harness.baseURL.count)), body: nil, authorization: nil)
            #expect(page.status == 200)
            #expect(page.headers.first { $0.name.lowercased() == "content-type" }?.value == "text/html; charset=utf-8")
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains("19.99 USD") && html.contains("order-7") && html.contains("Cash App Pay"))
            let unknown = try await harness.raw(method: "GET", path: "/sandbox/afterpay/checkout?token=002.unknown", body: nil, authorization: nil)
            #expect(unknown.status == 404)
        }
    }

    @Test func createCheckoutAnswersATokenThatLivesAnHour() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay("POST", "/v2/checkouts", json: Self.checkoutJSON())
            #expect(response.status == 201)
            let created = try JSONDecoder().decode(AfterpayCheckoutResponse.self, from: response.body)
            #expect(created.token.hasPrefix("002."))
            #expect(ISO8601Milliseconds.date(from: created.expires) == harness.clock.now.addingTimeInterval(3600))
            #expect(created.redirectCheckoutUrl.contains(created.token))
        }
    }

    @Test func getCheckoutAnswersTheCheckoutAsCreated() async throws {
        try await SandboxHarness.with { harness in
            let token = try await token(harness)
            let response = try await harness.afterpay("GET", "/v2/checkouts/\(token)", json: nil)
            #expect(response.status == 200)
            let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(body["token"] as? String == token)
            #expect((body["amount"] as? [String: Any])?["amount"] as? String == "19.99")
            #expect((body["consumer"] as? [String: Any])?["email"] as? String == "pat@example.com")
            #expect(body["merchantReference"] as? String == "order-7")
            #expect((body["redirectCheckoutUrl"] as? String)?.contains(token) == true)
            let unknown = try await harness.afterpay("GET", "/v2/checkouts/002.unknown", json: nil)
            #expect(unknown.status == 404)
            #expect(try error(unknown).errorCode == "not_found")
            #expect(try await harness.afterpay("GET", "/v2/checkouts/\(token)", json: nil, credentials: nil).status == 401)
        }
    }

    /// Operations Afterpay has that the sandbox does not emulate answer as Afterpay answers an
    /// unsupported call: its JSON error, 404 for a path it does not serve, 405 for a method.
    @Test(arguments: [("POST", "/v2/payments/100000001/refund", 404, "not_found"), ("POST", "/v2/payments/auth", 405, "method_not_allowed")])
    func unemulatedOperationsAnswerInAfterpaysShape(method: String, path: String, status: Int, code: String) async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay(method, path, json: "{}")
            #expect(response.status == status)
            #expect(response.headers.first { $0.name.lowercased() == "content-type" }?.value == "application/json")
            #expect(try error(response).errorCode == code)
        }
    }

    @Test(arguments: [
        (checkoutJSON(confirm: nil), "merchant.redirectConfirmUrl"),
        (checkoutJSON(cancel: nil), "merchant.redirectCancelUrl"),
        (checkoutJSON(email: nil), "consumer.email"),
    ])
    func cashAppPayNeedsBothRedirectsAndAnEmail(json: String, field: String) async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay("POST", "/v2/checkouts", json: json)
            #expect(response.status == 422)
            let body = try error(response)
            #expect(body.errorCode == "invalid_object")
            #expect(body.message.contains(field))
            #expect(body.httpStatusCode == 422)
            #expect(!body.errorId.isEmpty)
        }
    }

    @Test(arguments: ["0.50", "2500.00"])
    func amountsOutsideTheMerchantsLimitsAreUnsupported(amount: String) async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay("POST", "/v2/checkouts", json: Self.checkoutJSON(amount: amount))
            #expect(response.status == 422)
            #expect(try error(response).errorCode == "unsupported_payment_type")
        }
    }

    @Test func malformedJSONAndBadCredentials() async throws {
        try await SandboxHarness.with { harness in
            let malformed = try await harness.afterpay("POST", "/v2/checkouts", json: "{amount")
            #expect(malformed.status == 400)
            #expect(try error(malformed).errorCode == "invalid_json")
            let wrong = try await harness.afterpay("POST", "/v2/checkouts", json: Self.checkoutJSON(), credentials: "100101:nope")
            #expect(wrong.status == 401)
            #expect(try error(wrong).errorCode == "unauthorized")
            let none = try await harness.afterpay("POST", "/v2/payments/capture", json: #"{"token": "x"}"#, credentials: nil)
            #expect(none.status == 401)
        }
    }

    @Test func theSignedJWTVerifiesWithTheSandboxKeyAndCarriesTheDocumentedPayload() async throws {
        try await SandboxHarness.with { harness in
            let token = try await token(harness)
            let response = try await harness.afterpay("POST", "/v2/payments/sign-payment", json: #"{"token": "\#(token)"}"#, credentials: nil)
            #expect(response.status == 200)
            let signed = try JSONDecoder().decode(AfterpaySignResponse.self, from: response.body)
            #expect(signed.externalBrandId.hasPrefix("BRAND_"))
            #expect(signed.redirectUrl == "https://shop.example/confirm")

            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try #require(harness.sandbox.afterpaySigningKey), kid: "afterpay-sandbox-es256")
            let claims = try await keys.verify(signed.jwtToken, as: AfterpaySignedPayment.self)
            #expect(claims.amount == .init(amount: "19.99", currency: "USD", symbol: "$"))
            #expect(claims.token == token)
            #expect(claims.externalMerchantId.hasPrefix("MMI_"))
            #expect(claims.redirectUrl == signed.redirectUrl)
            let header = try JSONSerialization.jsonObject(with: base64URL(String(signed.jwtToken.split(separator: ".")[0]))) as? [String: Any]
            #expect(header?["kid"] as? String == "afterpay-sandbox-es256")
            #expect(header?["alg"] as? String == "ES256")
        }
    }

    @Test func signingAnUnknownTokenIsInvalidToken() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay("POST", "/v2/payments/sign-payment", json: #"{"token": "002.nope"}"#, credentials: nil)
            #expect(response.status == 402)
            #expect(try error(response).errorCode == "invalid_token")
        }
    }

    /// Checkout, sign, an approved customer request for the JWT's amount; returns what validate needs.
    private func approvedPayment(_ harness: SandboxHarness) async throws -> (token: String, jwt: String, request: CustomerRequest) {
        let token = try await token(harness)
        let signResponse = try await harness.afterpay("POST", "/v2/payments/sign-payment", json: #"{"token": "\#(token)"}"#, credentials: nil)
        let signed = try JSONDecoder().decode(AfterpaySignResponse.self, from: signResponse.body)
        let created = try await harness.client().create(CreateCustomerRequestParams(
            actions: [.oneTimePayment(scopeID: signed.externalBrandId, amount: 1999, currency: "USD")],
            channel: .IN_APP, redirectURL: signed.redirectUrl))
        let approved = try await harness.customer.customer(.approve, requestID: created.id).request
        return (token, signed.jwtToken, approved)
    }

    private func validate(_ harness: SandboxHarness, jwt: String, customer: String, grant: String) async throws -> AfterpayValidateResponse {
        let body = try JSONEncoder().encode(AfterpayValidateRequest(jwt: jwt, externalCustomerId: customer, externalGrantId: grant))
        let response = try await harness.afterpay("POST", "/v2/payments/validate-payment", json: String(decoding: body, as: UTF8.self), credentials: nil)
        #expect(response.status == 200)
        return try JSONDecoder().decode(AfterpayValidateResponse.self, from: response.body)
    }

    @Test func validationSucceedsOnlyForTheTokensOwnApprovedGrant() async throws {
        try await SandboxHarness.with { harness in
            let (_, jwt, request) = try await approvedPayment(harness)
            let customer = try #require(request.customerProfile?.id)
            let grant = try #require(request.grants?.first?.id)
            let ok = try await validate(harness, jwt: jwt, customer: customer, grant: grant)
            #expect(ok.status == "SUCCESS")
            #expect(ok.cashAppTag == "$SandboxShopper")
            #expect(ok.callbackBaseUrl != nil)

            let wrongGrant = try await validate(harness, jwt: jwt, customer: customer, grant: "GRG_other")
            #expect(wrongGrant.status != "SUCCESS")
            #expect(wrongGrant.message?.isEmpty == false)
            let wrongCustomer = try await validate(harness, jwt: jwt, customer: "CST_someone", grant: grant)
            #expect(wrongCustomer.status != "SUCCESS")
            let forged = try await validate(harness, jwt: String(jwt.dropLast(4)) + "AAAA", customer: customer, grant: grant)
            #expect(forged.status != "SUCCESS")
        }
    }

    @Test func captureIsIdempotentOnTheTokenAndTheLedgerShowsOneCapture() async throws {
        try await SandboxHarness.with { harness in
            let (token, jwt, request) = try await approvedPayment(harness)
            let grant = try #require(request.grants?.first?.id)
            _ = try await validate(harness, jwt: jwt, customer: request.customerProfile!.id, grant: grant)
            let body = #"{"token": "\#(token)", "merchantReference": "order-7", "grantId": "\#(grant)"}"#
            let first = try await harness.afterpay("POST", "/v2/payments/capture", json: body)
            #expect(first.status == 201)
            let payment = try JSONDecoder().decode(AfterpayPayment.self, from: first.body)
            #expect(payment.status == "APPROVED")
            #expect(payment.paymentState == "CAPTURED")
            #expect(payment.originalAmount == AfterpayMoney(amount: "19.99", currency: "USD"))
            #expect(payment.openToCaptureAmount.amount == "0.00")

            try await harness.inject("POST /v2/payments/capture reset")
            await #expect(throws: TransportFailure.self) { try await harness.afterpay("POST", "/v2/payments/capture", json: body) }
            let again = try await harness.afterpay("POST", "/v2/payments/capture", json: body)
            #expect(try JSONDecoder().decode(AfterpayPayment.self, from: again.body).id == payment.id)

            let ledger = try await harness.raw(method: "GET", path: "/sandbox/ledger", body: nil)
            struct Ledger: Decodable { let captures: [AfterpayStore.LedgerEntry] }  // beside other providers' sections
            let entries = try JSONDecoder().decode(Ledger.self, from: ledger.body).captures
            #expect(entries.count == 1)
            #expect(entries.first?.captures == 1)
            #expect(entries.first?.captureRequests == 3)
            #expect(entries.first?.paymentID == payment.id)
            #expect(entries.first?.merchantReference == "order-7")

            // Get Payment By Token and by order id find it; a token with no payment is 404.
            let byToken = try await harness.afterpay("GET", "/v2/payments/token:\(token)", json: nil)
            #expect(byToken.status == 200)
            #expect(try JSONDecoder().decode(AfterpayPayment.self, from: byToken.body).id == payment.id)
            let byID = try await harness.afterpay("GET", "/v2/payments/\(payment.id)", json: nil)
            #expect(try JSONDecoder().decode(AfterpayPayment.self, from: byID.body).token == token)
            let none = try await harness.afterpay("GET", "/v2/payments/token:002.unknown", json: nil)
            #expect(none.status == 404)
            #expect(try JSONDecoder().decode(AfterpayError.self, from: none.body).errorCode == "not_found")
        }
    }

    /// Get Configuration as Afterpay answers it (Configuration.v2: Merchant-limit): the limits
    /// always, the public id only when asked; Basic credentials required. No Cash App client id:
    /// Afterpay's answer has none.
    @Test func getConfigurationAnswersTheMerchantsLimits() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay("GET", "/v2/configuration", json: nil)
            #expect(response.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(Set(object.keys) == ["minimumAmount", "maximumAmount"])
            let configuration = try JSONDecoder().decode(AfterpayMerchantConfiguration.self, from: response.body)
            #expect(configuration.minimumAmount == AfterpayMoney(amount: "1.00", currency: "USD"))
            #expect(configuration.maximumAmount == AfterpayMoney(amount: "2000.00", currency: "USD"))
            let withID = try await harness.afterpay("GET", "/v2/configuration?include=publicid&include=consumerlending", json: nil)
            #expect(try JSONDecoder().decode(AfterpayMerchantConfiguration.self, from: withID.body).publicId == AfterpayMerchant.sandbox.publicID)
            let anonymous = try await harness.afterpay("GET", "/v2/configuration", json: nil, credentials: nil)
            #expect(anonymous.status == 401)
            #expect(try error(anonymous).errorCode == "unauthorized")
            let mappings = try await harness.afterpay("GET", "/v2/configuration/mappings", json: nil)
            #expect(try JSONDecoder().decode(AfterpayConfigurationMappings.self, from: mappings.body).externalBrandId == AfterpayMerchant.sandbox.brandID)
        }
    }

    /// 33.30 fails sign-payment once per merchant reference (a new token for the same order
    /// signs); 33.31 fails it every time. Both in Afterpay's error shape, 500 `error`.
    @Test func signMagicAmountsFailOnceOrAlways() async throws {
        try await SandboxHarness.with { harness in
            func sign(_ token: String) async throws -> ProviderResponse {
                try await harness.afterpay("POST", "/v2/payments/sign-payment", json: #"{"token": "\#(token)"}"#, credentials: nil)
            }
            let once = try await sign(try await token(harness, amount: "33.30"))
            #expect(once.status == 500)
            #expect(try error(once).errorCode == "error")
            #expect(try error(once).message.contains("retry with a new checkout token"))
            #expect(try await sign(try await token(harness, amount: "33.30")).status == 200)
            #expect(try await sign(try await token(harness, amount: "33.31")).status == 500)
            #expect(try await sign(try await token(harness, amount: "33.31")).status == 500)
        }
    }

    @Test func captureWithoutAValidatedApprovalIsDeclined() async throws {
        try await SandboxHarness.with { harness in
            let token = try await token(harness)
            let response = try await harness.afterpay("POST", "/v2/payments/capture", json: #"{"token": "\#(token)"}"#)
            let payment = try JSONDecoder().decode(AfterpayPayment.self, from: response.body)
            #expect(payment.status == "DECLINED")
            #expect(payment.paymentState == "CAPTURE_DECLINED")
            #expect(try await harness.sandbox.afterpay.ledger.first?.captures == 0)
        }
    }
}

private func base64URL(_ text: String) -> Data {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64) ?? Data()
}
