import Foundation
import ProviderWire

extension AdyenClient {
    /// `POST /sessions` (server side, with the API key): the session the component pays in.
    public func createSession(_ request: AdyenSessionRequest, idempotencyKey: String) async throws(AdyenFailure) -> AdyenSessionResponse {
        try await call("POST", AdyenSessionPaths.create, body: request, idempotencyKey: idempotencyKey)
    }

    /// `GET /sessions/{id}?sessionResult=…` (server side): the session's status and payments.
    public func sessionResult(sessionID: String, sessionResult: String) async throws(AdyenFailure) -> AdyenSessionResultResponse {
        try await call("GET", AdyenSessionPaths.result(sessionID: sessionID, sessionResult: sessionResult), body: Optional<Never>.none, idempotencyKey: nil)
    }

    /// The component's side of the same account: the client-key host with the client key only.
    public var component: AdyenComponentClient { AdyenComponentClient(configuration: configuration, http: http) }
}

/// What Adyen's iOS component calls on the client-key host (`checkoutshopper`) for a session:
/// setup, payments and paymentDetails (adyen-ios `AdyenSession/API/`). It identifies the
/// merchant with the client key in the query; the API key never travels there. Every answer
/// carries a new `sessionData`, and the caller sends the latest with the next call. Each POST
/// carries an `Idempotency-Key`, the same on its retries (Adyen's components send none; the
/// sandbox replays an attempt's answer by it), so a lost answer never pays twice.
public struct AdyenComponentClient: Sendable {
    public let configuration: AdyenConfiguration
    public let http: ProviderHTTPClient

    public init(configuration: AdyenConfiguration, http: ProviderHTTPClient) {
        self.configuration = configuration
        self.http = http
    }

    /// `…/v1/sessions/{id}/setup`: the session's payment methods (Cash App Pay's clientId and
    /// scopeId, the shopper's stored methods), and its next `sessionData`.
    public func setup(sessionID: String, sessionData: String, idempotencyKey: String) async throws(AdyenFailure) -> AdyenSessionSetupResponse {
        try await call(.setup, sessionID: sessionID, body: AdyenSessionSetupRequest(sessionData: sessionData), idempotencyKey: idempotencyKey)
    }

    /// `…/v1/sessions/{id}/payments`: pays with the grants (or a stored method).
    public func payments(sessionID: String, _ request: AdyenSessionPaymentRequest, idempotencyKey: String) async throws(AdyenFailure) -> AdyenSessionPaymentResponse {
        try await call(.payments, sessionID: sessionID, body: request, idempotencyKey: idempotencyKey)
    }

    /// `…/v1/sessions/{id}/paymentDetails`: completes a payment that answered with an `action`.
    public func paymentDetails(
        sessionID: String, _ request: AdyenSessionPaymentDetailsRequest, idempotencyKey: String
    ) async throws(AdyenFailure) -> AdyenSessionPaymentResponse {
        try await call(.paymentDetails, sessionID: sessionID, body: request, idempotencyKey: idempotencyKey)
    }

    private func call<Body: Encodable, Answer: Decodable>(
        _ call: AdyenSessionPaths.ComponentCall, sessionID: String, body: Body, idempotencyKey: String
    ) async throws(AdyenFailure) -> Answer {
        let path = AdyenSessionPaths.component(call, sessionID: sessionID, clientKey: configuration.clientKey)
        return try await http.jsonCall(
            "POST", url: configuration.componentBaseURL + path, headers: [(name: "Accept", value: "application/json")], body: body,
            extraHeaders: [(name: "Idempotency-Key", value: idempotencyKey)], provider: AdyenClient.provider,
            errorBody: AdyenServiceError.self, decorate: AdyenClient.addPSPReference, shouldRetry: AdyenClient.isRetryable)
    }
}

extension AdyenClient {
    /// The shopper's visit of a `redirect` action's page and their return to the returnUrl: the
    /// page is opened (not followed) and its redirect's query (`redirectResult=…`) is what
    /// `/payments/details` (or the session's paymentDetails) completes the payment with. No
    /// credentials go with it: it is the shopper's browser, not the merchant.
    public func shopperReturn(from action: AdyenPaymentResponse.Action) async throws(AdyenFailure) -> [String: String] {
        guard let url = action.url, action.type == "redirect" else {
            throw .undecodable(status: 0, detail: "an action of type \(action.type) this terminal cannot perform (only redirect)")
        }
        let response: ProviderResponse
        do {
            response = try await http.send(ProviderRequest(method: action.method ?? "GET", url: url, headers: []), provider: Self.provider)
        } catch { throw .transport(error) }
        guard (300..<400).contains(response.status), let location = ProviderHTTPClient.header("location", in: response),
            let items = URLComponents(string: location)?.queryItems, !items.isEmpty
        else {
            throw .undecodable(
                status: response.status,
                detail: "the redirect page did not send the shopper back with a result; complete it in a browser (\(action.url ?? ""))")
        }
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }
}
