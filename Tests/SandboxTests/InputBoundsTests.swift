import CheckoutApp
import Foundation
import ProviderClients
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// Values from outside are checked where they enter, with errors naming the field, the value
/// and what is allowed, in the provider's own shape.
@Suite struct InputBoundsTests {
    private func cashAppError(_ response: ProviderResponse) throws -> CashAppErrorDetail {
        try #require(try CashAppJSON.decoder().decode(CashAppErrorBody.self, from: response.body).errors.first)
    }

    private static func createJSON(amount: String = "4505", metadata: String = #"{"cartId": "c-1"}"#) -> String {
        """
        {"idempotency_key": "\(UUID().uuidString)", "request": {"channel": "ONLINE", "redirect_url": "terminalcheckout://return",
         "actions": [{"type": "ONE_TIME_PAYMENT", "scope_id": "BRAND_harness", "amount": \(amount), "currency": "USD"}],
         "metadata": \(metadata)}}
        """
    }

    @Test func aCashAppAmountAboveTheMaximumIsTooHigh() async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: Self.createJSON(amount: "9223372036854775807"))
            #expect(response.status == 400)
            let error = try cashAppError(response)
            #expect(error.code == "VALUE_TOO_HIGH")
            #expect(error.field == "request.actions[0].amount")
            #expect(error.detail?.contains("9223372036854775807") == true)
            #expect(error.detail?.contains("99999999999") == true)
            let largest = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: Self.createJSON(amount: "99999999999"))
            #expect(largest.status == 201)
        }
    }

    @Test func theSandboxAndTheClientShareOneAmountCeiling() {
        #expect(SandboxLimits.maxAmountMinorUnits == InputLimits.minorUnits.upperBound)
    }

    @Test(arguments: [
        (Self.manyKeys(51), "ARRAY_LENGTH_TOO_LONG", "request.metadata"),
        (#"{"k": "\#(String(repeating: "v", count: 1025))"}"#, "VALUE_TOO_LONG", "request.metadata.k"),
        (#"{"\#(String(repeating: "k", count: 41))": "v"}"#, "VALUE_TOO_LONG", "request.metadata"),
        (#"{"": "v"}"#, "VALUE_EMPTY", "request.metadata"),
    ])
    func metadataHasBounds(metadata: String, code: String, field: String) async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: Self.createJSON(metadata: metadata))
            #expect(response.status == 400)
            let error = try cashAppError(response)
            #expect(error.code == code)
            #expect(error.field == field)
            let atTheLimit = try await harness.raw(method: "POST", path: "/customer-request/v1/requests", body: Self.createJSON(metadata: Self.manyKeys(20)))
            #expect(atTheLimit.status == 201)
        }
    }

    static func manyKeys(_ count: Int) -> String {
        "{" + (0..<count).map { #""key\#($0)": "\#(String(repeating: "v", count: 1024))""# }.joined(separator: ", ") + "}"
    }

    @Test(arguments: [" 45.05", "+45.05", "45.", "00045.05", "45.5", "45.055", "-45.05", "4.505e1", "45,05", "", "1000000000.00", "٤٥.٠٥"])
    func anAfterpayAmountMustBeWrittenAsAfterpayWritesMoney(amount: String) async throws {
        try await SandboxHarness.with { harness in
            let response = try await harness.afterpay("POST", "/v2/checkouts", json: AfterpayAPITests.checkoutJSON(amount: amount))
            #expect(response.status == 400)
            let error = try JSONDecoder().decode(AfterpayError.self, from: response.body)
            #expect(error.errorCode == "invalid_object")
            #expect(error.httpStatusCode == 400)
            #expect(error.message.contains("amount.amount \"\(amount)\""), "\(error.message)")
            #expect(error.message.contains("exactly two decimals"))
            #expect(try await harness.sandbox.afterpay.count == 0)
        }
    }

    @Test(arguments: ["usd", "US", "USDX", "U$D"])
    func anAfterpayCurrencyIsAnUpperCaseISOCode(currency: String) async throws {
        try await SandboxHarness.with { harness in
            let json = AfterpayAPITests.checkoutJSON().replacingOccurrences(of: #""USD""#, with: "\"\(currency)\"")
            let response = try await harness.afterpay("POST", "/v2/checkouts", json: json)
            #expect(response.status == 400)
            let error = try JSONDecoder().decode(AfterpayError.self, from: response.body)
            #expect(error.message.contains("amount.currency \"\(currency)\""), "\(error.message)")
            #expect(error.message.contains("ISO 4217"))
        }
    }

    @Test func everyMoneyInACheckoutIsChecked() async throws {
        try await SandboxHarness.with { harness in
            var body = try #require(try JSONSerialization.jsonObject(with: Data(AfterpayAPITests.checkoutJSON().utf8)) as? [String: Any])
            body["items"] = [["name": "Mug", "quantity": 1, "price": ["amount": "+1.00", "currency": "USD"]]]
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let response = try await harness.afterpay("POST", "/v2/checkouts", json: json)
            #expect(response.status == 400)
            #expect(try JSONDecoder().decode(AfterpayError.self, from: response.body).message.contains("items[0].price.amount"))
        }
    }
}
