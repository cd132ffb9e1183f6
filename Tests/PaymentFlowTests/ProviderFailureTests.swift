import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Testing

/// Each provider classifies its own error bodies into the one failure type; transport
/// failures are classified the same way for every provider.
@Suite struct ProviderFailureTests {
    private func cashApp(status: Int, body: String) -> CheckoutState {
        let response = ProviderResponse(status: status, headers: [], body: Data(body.utf8))
        do {
            _ = try CustomerRequestClient.decode(response)
            return .notStarted
        } catch {
            return .failed(ProviderFailure(error))
        }
    }

    @Test(arguments: [
        (500, #"{"errors":[{"category":"API_ERROR","code":"INTERNAL_SERVER_ERROR","detail":"boom"}]}"#, "apiError"),
        (503, #"{"errors":[{"category":"API_ERROR","code":"SERVICE_UNAVAILABLE"}]}"#, "apiError"),
        (401, #"{"errors":[{"category":"AUTHENTICATION_ERROR","code":"UNAUTHORIZED"}]}"#, "integrationError"),
        (404, #"{"errors":[{"category":"BRAND_ERROR","code":"BRAND_NOT_FOUND","field":"request.actions[0].scope_id"}]}"#, "integrationError"),
        (400, #"{"errors":[{"category":"INVALID_REQUEST_ERROR","code":"INVALID_URL","field":"request.redirect_url"}]}"#, "integrationError"),
        (429, #"{"errors":[{"category":"RATE_LIMIT_ERROR","code":"RATE_LIMITED"}]}"#, "integrationError"),
        (422, #"{"errors":[{"category":"MERCHANT_ERROR","code":"MERCHANT_MISSING_ADDRESS_OR_SITE"}]}"#, "integrationError"),
        (400, #"{"errors":[{"category":"GRANT_ERROR","code":"GRANT_EXPIRED"}]}"#, "unexpectedError"),
        (500, #"{"errors":[]}"#, "unexpectedError"),
        (502, "<html>Bad gateway</html>", "networkError"),
        (200, "not json", "networkError"),
        (200, "", "networkError"),
    ])
    func eachCashAppErrorBodyLeadsToItsState(status: Int, body: String, expected: String) {
        #expect(cashApp(status: status, body: body).name == expected)
    }

    @Test func theErrorKeepsCategoryCodeDetailFieldAndStatus() {
        let mapped = cashApp(status: 404, body: #"{"errors":[{"category":"BRAND_ERROR","code":"BRAND_NOT_FOUND","detail":"No brand","field":"request.actions[0].scope_id"}]}"#)
        #expect(mapped.error == ProviderFailure(
            kind: .integration, category: "BRAND_ERROR", code: "BRAND_NOT_FOUND", detail: "No brand", field: "request.actions[0].scope_id", httpStatus: 404))
    }

    @Test(arguments: [
        (AfterpayFailure.api(status: 503, body: AfterpayError(errorCode: "service_unavailable", errorId: "x", message: "down", httpStatusCode: 503)), "apiError", "API_ERROR"),
        (.api(status: 401, body: AfterpayError(errorCode: "unauthorized", errorId: "x", message: "no", httpStatusCode: 401)), "integrationError", "AFTERPAY_401"),
        (.undecodable(status: 200, detail: "garbage"), "networkError", "NETWORK_ERROR"),
    ])
    func afterpayAnswersLeadToTheirStates(failure: AfterpayFailure, expected: String, category: String) {
        let state = CheckoutState.failed(ProviderFailure(failure))
        #expect(state.name == expected)
        #expect(state.error?.category == category)
    }

    @Test(arguments: [
        (TransportFailure.timedOut(after: .seconds(5)), "NO_RESPONSE"), (.connectionLost("reset"), "NO_RESPONSE"),
        (.connectionFailed("refused"), "SYSTEM_ERROR"), (.other("tls"), "SYSTEM_ERROR"),
    ])
    func transportFailuresAreClassifiedTheSameForEveryProvider(transport: TransportFailure, code: String) {
        let fromCashApp = ProviderFailure(CustomerRequestFailure.transport(transport))
        let fromAfterpay = ProviderFailure(AfterpayFailure.transport(transport))
        #expect(fromCashApp == fromAfterpay)
        #expect(fromCashApp.kind == .network && fromCashApp.code == code)
    }

    @Test func emptyAndUndecodableBodiesAreNetworkErrors() {
        #expect(ProviderFailure(CustomerRequestFailure.emptyBody(status: 200)).code == "NIL_DATA")
        #expect(ProviderFailure(CustomerRequestFailure.undecodable(status: 200, detail: "x")).code == "INVALID_JSON")
        #expect(ProviderFailure(CustomerRequestFailure.api(status: 500, body: CashAppErrorBody(errors: []))) == .emptyErrorArray)
    }

    @Test func aBodiless4xxIsAWrongURLForTheIntegrationToFix() {
        let failure = ProviderFailure.emptyBody(status: 404)
        #expect(failure.kind == .integration)
        #expect(failure.code == "HTTP_404")
        #expect(failure.detail?.contains("check the base URL") == true)
        #expect(ProviderFailure.emptyBody(status: 502).kind == .network)
    }
}
