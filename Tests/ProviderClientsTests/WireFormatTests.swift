import Foundation
import ProviderClients
import ProviderWire
import Testing
import TestSupport

/// The client reads and writes the Customer Request API's real wire format (PROVIDERS.md §1).
@Suite struct WireFormatTests {
    static let approvedJSON = """
        {"request": {
          "id": "GRR_dp5bn4xmbm3p2zrvzbhqr3m1",
          "status": "APPROVED",
          "actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_9kx6p0mkuo97jnl025q9ni94t", "amount": 1999, "currency": "USD"},
                      {"type": "ON_FILE_PAYMENT", "scope_id": "BRAND_9kx6p0mkuo97jnl025q9ni94t", "account_reference_id": "acct-7"}],
          "auth_flow_triggers": null,
          "redirect_url": "tc://checkout/return",
          "created_at": "2022-10-20T20:16:18.051Z",
          "updated_at": "2022-10-20T20:17:02.512Z",
          "expires_at": "2022-10-20T21:16:18.051Z",
          "origin": {"type": "DIRECT"},
          "channel": "IN_APP",
          "reference_id": "order-42",
          "requester_profile": {"name": "Driftwood Coffee Co.", "logo_url": "https://example.com/logo.png"},
          "customer_profile": {"id": "CST_AYVkuLw-sT3OKZ7a_nhNTC_L2ekahLgGrS-EM_QhW4OTrGW", "cashtag": "$jack"},
          "metadata": {"cartId": "c-1", "source": "terminal"},
          "grants": [
            {"id": "GRG_AZYyHv2DwQltw0SiCLTaRb73y40XFe2dWM690WDF9Btqn-uTCYAUROa4ciwCdDnZcG4PuY1m_i3gwHODiO8DSf9zdMYRIwm__PpyLLUMo-X9xcVcRrmCsaMqrGVJstuCwUYgmPBhjr2D2wM",
             "customer_id": "CST_AYVkuLw-sT3OKZ7a_nhNTC_L2ekahLgGrS-EM_QhW4OTrGW",
             "action": {"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_9kx6p0mkuo97jnl025q9ni94t", "amount": 1999, "currency": "USD"},
             "status": "ACTIVE", "type": "ONE_TIME", "channel": "IN_APP",
             "created_at": "2022-10-20T20:17:02.475Z", "updated_at": "2022-10-20T20:17:02.475Z", "expires_at": "2022-10-20T21:17:02.448Z"},
            {"id": "GRG_second", "customer_id": "CST_AYVkuLw-sT3OKZ7a_nhNTC_L2ekahLgGrS-EM_QhW4OTrGW",
             "action": {"type": "ON_FILE_PAYMENT", "scope_id": "BRAND_9kx6p0mkuo97jnl025q9ni94t", "account_reference_id": "acct-7"},
             "status": "ACTIVE", "type": "EXTENDED", "channel": "IN_APP",
             "created_at": "2022-10-20T20:17:02.475Z", "updated_at": "2022-10-20T20:17:02.475Z"}
          ]
        }}
        """

    static let pendingJSON = """
        {"request": {
          "id": "GRR_pending", "status": "PENDING",
          "actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_x", "amount": 4505, "currency": "USD"}],
          "auth_flow_triggers": {
            "qr_code_image_url": "https://sandbox.api.cash.app/qr/sandbox/v1/GRR_pending-abc?rounded=0&format=png",
            "qr_code_svg_url": "https://sandbox.api.cash.app/qr/sandbox/v1/GRR_pending-abc?rounded=0&format=svg",
            "mobile_url": "https://sandbox.api.cash.app/customer-request/v1/requests/GRR_pending/interstitial",
            "refreshes_at": "2022-10-20T20:16:48.051Z"},
          "redirect_url": "tc://checkout/return",
          "created_at": "2022-10-20T20:16:18.051Z", "updated_at": "2022-10-20T20:16:18.051Z",
          "expires_at": "2022-10-20T21:16:18.051Z",
          "origin": {"type": "REQUEST_INITIATOR", "id": "INIT_1"}, "channel": "ONLINE",
          "requester_profile": {"name": "Driftwood Coffee Co.", "logo_url": "https://example.com/logo.png"}
        }}
        """

    private func date(_ text: String) -> Date { ISO8601Milliseconds.date(from: text)! }

    private func decode(_ json: String) throws -> CustomerRequest {
        try CustomerRequestClient.decode(ProviderResponse(status: 200, headers: [], body: Data(json.utf8)))
    }

    @Test func decodesAFullyPopulatedApprovedRequest() throws {
        let request = try decode(Self.approvedJSON)
        #expect(request.id == "GRR_dp5bn4xmbm3p2zrvzbhqr3m1")
        #expect(request.status == .APPROVED)
        #expect(request.actions.count == 2)
        #expect(request.actions[0] == .oneTimePayment(scopeID: "BRAND_9kx6p0mkuo97jnl025q9ni94t", amount: 1999, currency: "USD"))
        #expect(request.actions[1].type == .ON_FILE_PAYMENT)
        #expect(request.actions[1].accountReferenceID == "acct-7")
        #expect(request.authFlowTriggers == nil)
        #expect(request.redirectURL == "tc://checkout/return")
        #expect(request.createdAt == date("2022-10-20T20:16:18.051Z"))
        #expect(request.updatedAt == date("2022-10-20T20:17:02.512Z"))
        #expect(request.expiresAt == date("2022-10-20T21:16:18.051Z"))
        #expect(request.origin == .init(type: "DIRECT"))
        #expect(request.channel == .IN_APP)
        #expect(request.referenceID == "order-42")
        #expect(request.requesterProfile == .init(name: "Driftwood Coffee Co.", logoURL: "https://example.com/logo.png"))
        #expect(request.customerProfile == .init(id: "CST_AYVkuLw-sT3OKZ7a_nhNTC_L2ekahLgGrS-EM_QhW4OTrGW", cashtag: "$jack"))
        #expect(request.metadata == ["cartId": "c-1", "source": "terminal"])
        let grants = try #require(request.grants)
        #expect(grants.count == 2)
        #expect(grants[0].customerID == request.customerProfile?.id)
        #expect(grants[0].action.amount == 1999)
        #expect(grants[0].status == .ACTIVE)
        #expect(grants[0].type == .ONE_TIME)
        #expect(grants[0].channel == .IN_APP)
        #expect(grants[0].createdAt == date("2022-10-20T20:17:02.475Z"))
        #expect(grants[0].expiresAt == date("2022-10-20T21:17:02.448Z"))
        #expect(grants[1].type == .EXTENDED)
        #expect(grants[1].expiresAt == nil)
    }

    @Test func decodesAPendingRequestWithTriggers() throws {
        let request = try decode(Self.pendingJSON)
        #expect(request.status == .PENDING)
        let triggers = try #require(request.authFlowTriggers)
        #expect(triggers.mobileURL == "https://sandbox.api.cash.app/customer-request/v1/requests/GRR_pending/interstitial")
        #expect(triggers.qrCodeImageURL.hasSuffix("format=png"))
        #expect(triggers.qrCodeSVGURL.hasSuffix("format=svg"))
        #expect(triggers.refreshesAt == date("2022-10-20T20:16:48.051Z"))
        #expect(triggers.isExpired(now: date("2022-10-20T20:16:38.051Z")))
        #expect(!triggers.isExpired(now: date("2022-10-20T20:16:38.050Z")))
        #expect(request.origin == .init(type: "REQUEST_INITIATOR", id: "INIT_1"))
        #expect(request.customerProfile == nil)
        #expect(request.grants == nil)
        #expect(request.referenceID == nil)
    }

    @Test func aRequestWithAnUnknownStatusIsInvalidJSON() {
        let broken = Self.pendingJSON.replacingOccurrences(of: "\"PENDING\"", with: "\"MAYBE\"")
        #expect(throws: CustomerRequestFailure.self) { try decode(broken) }
    }

    @Test func encodesTheCreateBodyInSnakeCaseWithMetadataKeysUntouched() throws {
        let body = CreateCustomerRequestBody(idempotencyKey: "k-1", request: .init(
            actions: [.oneTimePayment(scopeID: "BRAND_x", amount: 1999, currency: "USD")],
            channel: .ONLINE, redirectURL: "tc://r", referenceID: "order-1", metadata: ["cartId": "c"]))
        let json = String(decoding: try CashAppJSON.encoder().encode(body), as: UTF8.self)
        #expect(json == #"{"idempotency_key":"k-1","request":{"actions":[{"amount":1999,"currency":"USD","scope_id":"BRAND_x","type":"ONE_TIME_PAYMENT"}],"channel":"ONLINE","metadata":{"cartId":"c"},"redirect_url":"tc://r","reference_id":"order-1"}}"#)
    }

    @Test func updateSendsClearedFieldsAsNull() throws {
        let body = UpdateCustomerRequestBody(request: .init(actions: nil, referenceID: nil, metadata: nil))
        let json = String(decoding: try CashAppJSON.encoder().encode(body), as: UTF8.self)
        #expect(json == #"{"request":{"actions":null,"metadata":null,"reference_id":null}}"#)
    }

    @Test func datesHaveMillisecondsAndAnOffset() throws {
        let when = date("2022-10-20T20:16:18.051Z")
        #expect(ISO8601Milliseconds.string(from: when) == "2022-10-20T20:16:18.051Z")
        #expect(ISO8601Milliseconds.date(from: "2022-10-20T20:16:18Z") != nil)
        #expect(ISO8601Milliseconds.date(from: "yesterday") == nil)
    }
}

@Suite struct SignedPaymentTests {
    @Test func nineteenNinetyNineIsExactly1999Cents() async throws {
        try await SandboxHarness.with { harness in
            let afterpay = AfterpayClient(
                configuration: AfterpayConfiguration(
                    merchantBaseURL: harness.baseURL, signingBaseURL: harness.baseURL,
                    merchantID: "100101", secretKey: "sandbox-secret-key"),
                http: harness.http())
            let checkout = try await afterpay.createCheckout(AfterpayCheckoutRequest(
                amount: AfterpayMoney(amount: "19.99", currency: "USD"), consumer: .init(email: "pat@example.com"),
                merchantReference: "order-1",
                merchant: .init(redirectConfirmUrl: "https://shop.example/ok", redirectCancelUrl: "https://shop.example/no")))
            let signed = try await SignedPayment(signed: try await afterpay.signPayment(token: checkout.token))
            #expect(signed.amount.minorUnits == 1999)
            #expect(signed.amount.currency.code == "USD")
            #expect(signed.redirectURL == "https://shop.example/ok")
            #expect(signed.brandID.hasPrefix("BRAND_"))
            #expect(signed.merchantID.hasPrefix("MMI_"))
            #expect(signed.token == checkout.token)
            // The secret key and Basic credentials never reach the log.
            let logged = String(decoding: try JSONEncoder().encode(harness.log.entries), as: UTF8.self)
            #expect(!logged.contains("sandbox-secret-key"))
            #expect(!logged.contains(Data("100101:sandbox-secret-key".utf8).base64EncodedString()))
        }
    }
}

/// The Customer Request API's timestamps, written by arithmetic (no format style per request):
/// the same text Foundation's ISO 8601 style gives, to the millisecond, across eras and leap days.
@Suite struct ISO8601MillisecondsTests {
    @Test func writesWhatFoundationsStyleWrites() {
        var generator = SystemRandomNumberGenerator()
        let fixed: [Double] = [0, 951_782_400, 1_709_164_800.5, 1_800_000_000.051, 4_102_444_799.999, -1, -86_400.25, 253_402_300_799]
        let random = (0..<500).map { _ in Double(Int64.random(in: -2_000_000_000_000...253_402_300_799_000, using: &generator)) / 1000 }
        for seconds in fixed + random {
            let date = Date(timeIntervalSince1970: seconds)
            let milliseconds = Int64((seconds * 1000).rounded())
            let whole = Date(timeIntervalSince1970: TimeInterval(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient - (milliseconds % 1000 < 0 ? 1 : 0)))
            let fraction = ((milliseconds % 1000) + 1000) % 1000
            let expected = String(whole.formatted(Date.ISO8601FormatStyle()).dropLast()) + "." + String(String(fraction + 1000).dropFirst()) + "Z"
            #expect(ISO8601Milliseconds.string(from: date) == expected, "\(seconds)")
        }
    }

    /// A JSON answer's dates are written straight into its bytes: the same text, quoted.
    @Test func jsonDatesAreTheStringQuoted() {
        var generator = SystemRandomNumberGenerator()
        let far: [Double] = [-62_167_219_200, -62_167_219_200.001, 253_402_300_800, 1e12, -1e12, .infinity, -.infinity, .nan, .greatestFiniteMagnitude]
        let random = (0..<300).map { _ in Double(Int64.random(in: -62_167_219_200_000...253_402_300_799_999, using: &generator)) / 1000 }
        for seconds in far + random {
            let date = Date(timeIntervalSince1970: seconds)
            var json = JSONBytes()
            let wrote = json.date(date)
            #expect(wrote)
            #expect(String(decoding: json.bytes, as: UTF8.self) == "\"" + ISO8601Milliseconds.string(from: date) + "\"", "\(seconds)")
        }
        #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00.000Z")
    }
}
