import Foundation
import ProviderClients
import ProviderWire
import Testing
import TestSupport

/// Each validation error in the real error shape.
@Suite struct CustomerRequestValidationTests {
    private func rejection(
        _ harness: SandboxHarness, _ params: CreateCustomerRequestParams, clientID: String = SandboxHarness.clientID
    ) async -> (status: Int, error: CashAppErrorDetail?) {
        let outcome = await failure { () throws(CustomerRequestFailure) in
            try await harness.client(clientID: clientID).create(params)
        }
        guard case .api(let status, let body)? = outcome else { return (-1, nil) }
        return (status, body.errors.first)
    }

    @Test func emptyActions() async throws {
        try await SandboxHarness.with { harness in
            var params = SandboxHarness.params()
            params.actions = []
            let (status, error) = await rejection(harness, params)
            #expect(status == 400)
            #expect(error == CashAppErrorDetail(category: "INVALID_REQUEST_ERROR", code: "ARRAY_LENGTH_TOO_SHORT", detail: error?.detail, field: "request.actions"))
        }
    }

    @Test(arguments: [0, -100])
    func nonPositiveAmount(amount: Int) async throws {
        try await SandboxHarness.with { harness in
            let (status, error) = await rejection(harness, SandboxHarness.params(amount: amount))
            #expect(status == 400)
            #expect(error?.code == "VALUE_TOO_LOW")
            #expect(error?.field == "request.actions[0].amount")
        }
    }

    @Test(arguments: ["not a url", "", "https://", "/relative/path"])
    func badRedirectURL(url: String) async throws {
        try await SandboxHarness.with { harness in
            let (status, error) = await rejection(harness, SandboxHarness.params(redirectURL: url))
            #expect(status == 400)
            #expect(error?.code == "INVALID_URL")
            #expect(error?.field == "request.redirect_url")
        }
    }

    @Test func emptyScope() async throws {
        try await SandboxHarness.with { harness in
            let (status, error) = await rejection(harness, SandboxHarness.params(scopeID: ""))
            #expect(status == 400)
            #expect(error?.code == "VALUE_EMPTY")
            #expect(error?.field == "request.actions[0].scope_id")
        }
    }

    @Test func missingScopeField() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: """
                {"idempotency_key": "k", "request": {"actions": [{"type": "ONE_TIME_PAYMENT", "amount": 100, "currency": "USD"}],
                 "channel": "ONLINE", "redirect_url": "https://shop.example/return"}}
                """)
            #expect(response.status == 400)
            let body = try JSONDecoder().decode(CashAppErrorBody.self, from: response.body)
            #expect(body.errors.first?.code == "VALUE_EMPTY")
            #expect(body.errors.first?.field == "request.actions[0].scope_id")
        }
    }

    /// Amounts are whole minor units: a fraction or text is refused at the amount's field.
    @Test(arguments: ["45.5", "1e-2", "\"4505\""])
    func anAmountThatIsNotAWholeNumberIsRefusedAtItsField(amount: String) async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: """
                {"idempotency_key": "k", "request": {"actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_x", "amount": \(amount), "currency": "USD"}],
                 "channel": "ONLINE", "redirect_url": "https://shop.example/return"}}
                """)
            #expect(response.status == 400)
            let body = try JSONDecoder().decode(CashAppErrorBody.self, from: response.body)
            #expect(body.errors.first?.code == "VALUE_REGEX_MISMATCH")
            #expect(body.errors.first?.field == "request.actions[0].amount", "\(String(decoding: response.body, as: UTF8.self))")
        }
    }

    /// A one-time payment without an amount may be charged any amount; amount and currency come together.
    @Test(arguments: [
        (#""amount": 100"#, 400, "request.actions[0].currency"),
        (#""currency": "USD""#, 400, "request.actions[0].amount"),
        (#""account_reference_id": "acct-1""#, 201, ""),
    ])
    func aOneTimePaymentsAmountAndCurrencyComeTogether(fields: String, status: Int, field: String) async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: """
                {"idempotency_key": "k", "request": {"actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_x", \(fields)}],
                 "channel": "ONLINE", "redirect_url": "https://shop.example/return"}}
                """)
            #expect(response.status == status, "\(String(decoding: response.body, as: UTF8.self))")
            if status == 400 {
                #expect(try JSONDecoder().decode(CashAppErrorBody.self, from: response.body).errors.first?.field == field)
            }
        }
    }

    @Test func atMostFiveActions() async throws {
        try await SandboxHarness.with { harness in
            var params = SandboxHarness.params()
            params.actions = Array(repeating: params.actions[0], count: 6)
            let (status, error) = await rejection(harness, params)
            #expect(status == 400)
            #expect(error?.code == "ARRAY_LENGTH_TOO_LONG")
        }
    }

    @Test func malformedJSON() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: "{nope")
            #expect(response.status == 400)
            let body = try JSONDecoder().decode(CashAppErrorBody.self, from: response.body)
            #expect(body.errors.first?.category == "INVALID_REQUEST_ERROR")
        }
    }

    @Test(arguments: ["CAS-PROD_live", "someone", "CA-CI"])
    func unknownClientIDsAreUnauthorized(clientID: String) async throws {
        try await SandboxHarness.with { harness in
            let (status, error) = await rejection(harness, SandboxHarness.params(), clientID: clientID)
            #expect(status == 401)
            #expect(error?.category == "AUTHENTICATION_ERROR")
            #expect(error?.code == "UNAUTHORIZED")
        }
    }

    @Test func bothRealClientIDPrefixesAreAccepted() async throws {
        try await SandboxHarness.with { harness in
            _ = try await harness.client(clientID: "CAS-CI_merchant").create(SandboxHarness.params())
            _ = try await harness.client(clientID: "CA-CI_merchant").create(SandboxHarness.params())
        }
    }

    @Test func missingAuthorizationIsUnauthorized() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "GET", path: "/customer-request/v1/requests/GRR_x", body: nil, authorization: nil)
            #expect(response.status == 401)
        }
    }

    @Test func magicMissingBrand() async throws {
        try await SandboxHarness.with { harness in
            let (status, error) = await rejection(harness, SandboxHarness.params(scopeID: "BRAND_sandbox:missing"))
            #expect(status == 404)
            #expect(error?.category == "BRAND_ERROR")
            #expect(error?.code == "BRAND_NOT_FOUND")
        }
    }

    @Test func magicServerError() async throws {
        try await SandboxHarness.with { harness in
            let (status, error) = await rejection(harness, SandboxHarness.params(amount: 6670))
            #expect(status == 500)
            #expect(error?.category == "API_ERROR")
            #expect(error?.code == "INTERNAL_SERVER_ERROR")
        }
    }

    @Test func unknownIDsAreNotFound() async throws {
        try await SandboxHarness.with { harness in
            let outcome = await failure { () throws(CustomerRequestFailure) in
                try await harness.client().retrieve(id: "GRR_doesnotexist")
            }
            guard case .api(404, let body)? = outcome else { Issue.record("unexpected \(String(describing: outcome))"); return }
            #expect(body.errors.first?.code == "NOT_FOUND")
        }
    }

    @Test func anotherClientCannotSeeARequest() async throws {
        try await SandboxHarness.with { harness in
            let created = try await harness.client().create(SandboxHarness.params())
            await #expect(throws: CustomerRequestFailure.self) {
                try await harness.client(clientID: "CAS-CI_other").retrieve(id: created.id)
            }
        }
    }
}
