import Foundation
import ProviderWire

/// Adyen's Checkout API (v71) over the shared HTTP client: payment methods, payments and
/// details, modifications, stored methods. Every POST carries an `Idempotency-Key`, the same
/// on its retries, so a lost response never charges twice.
public struct AdyenClient: Sendable {
    public static let provider = "adyen"

    public let configuration: AdyenConfiguration
    public let http: ProviderHTTPClient

    public init(configuration: AdyenConfiguration, http: ProviderHTTPClient) {
        self.configuration = configuration
        self.http = http
    }

    public func paymentMethods(amount: AdyenAmount?, idempotencyKey: String) async throws(AdyenFailure) -> AdyenPaymentMethodsResponse {
        let body = AdyenPaymentMethodsRequest(
            merchantAccount: configuration.merchantAccount, amount: amount, shopperReference: configuration.shopperReference)
        return try await call("POST", "/paymentMethods", body: body, idempotencyKey: idempotencyKey)
    }

    public func payments(_ request: AdyenPaymentRequest, idempotencyKey: String) async throws(AdyenFailure) -> AdyenPaymentResponse {
        try await call("POST", "/payments", body: request, idempotencyKey: idempotencyKey)
    }

    /// `/payments` with an Apple Pay token (`AdyenApplePayDetails`); the same key on its retries.
    public func payWithApplePay(_ request: AdyenApplePayPaymentRequest, idempotencyKey: String) async throws(AdyenFailure) -> AdyenPaymentResponse {
        try await call("POST", "/payments", body: request, idempotencyKey: idempotencyKey)
    }

    public func paymentDetails(_ request: AdyenPaymentDetailsRequest, idempotencyKey: String) async throws(AdyenFailure) -> AdyenPaymentResponse {
        try await call("POST", "/payments/details", body: request, idempotencyKey: idempotencyKey)
    }

    public func capture(pspReference: String, amount: AdyenAmount, reference: String?, idempotencyKey: String) async throws(AdyenFailure) -> AdyenModificationResponse {
        let body = AdyenModificationRequest(merchantAccount: configuration.merchantAccount, amount: amount, reference: reference)
        return try await call("POST", "/payments/\(Self.escaped(pspReference))/captures", body: body, idempotencyKey: idempotencyKey)
    }

    public func cancel(pspReference: String, reference: String?, idempotencyKey: String) async throws(AdyenFailure) -> AdyenModificationResponse {
        let body = AdyenModificationRequest(merchantAccount: configuration.merchantAccount, amount: nil, reference: reference)
        return try await call("POST", "/payments/\(Self.escaped(pspReference))/cancels", body: body, idempotencyKey: idempotencyKey)
    }

    /// Removes a stored method (204, no body).
    public func deleteStoredPaymentMethod(id: String) async throws(AdyenFailure) {
        let _: Empty = try await call("DELETE", "/storedPaymentMethods/\(Self.escaped(id))?\(shopperQuery)", body: Optional<Never>.none, idempotencyKey: nil)
    }

    private var shopperQuery: String {
        "shopperReference=\(Self.queryEscaped(configuration.shopperReference))&merchantAccount=\(Self.queryEscaped(configuration.merchantAccount))"
    }

    /// A 204's missing body.
    private struct Empty: Decodable {}

    /// Lost responses and Adyen's own outages are retried (with the same idempotency key);
    /// a 4xx answer is final.
    public static func isRetryable(_ failure: AdyenFailure) -> Bool { failure.isRetryable || failure.isOutage }

    func call<Body: Encodable, Answer: Decodable>(
        _ method: String, _ path: String, body: Body?, idempotencyKey: String?
    ) async throws(AdyenFailure) -> Answer {
        try await http.jsonCall(
            method, url: configuration.baseURL + path,
            headers: [(name: "Accept", value: "application/json"), (name: "X-API-Key", value: configuration.apiKey)], body: body,
            extraHeaders: idempotencyKey.map { [(name: "Idempotency-Key", value: $0)] } ?? [], provider: Self.provider,
            errorBody: AdyenServiceError.self, decorate: Self.addPSPReference, shouldRetry: Self.isRetryable)
    }

    /// Adyen's library reads the reference from the body, else from the header.
    static func addPSPReference(to error: inout AdyenServiceError, from response: ProviderResponse) {
        if error.pspReference == nil { error.pspReference = ProviderHTTPClient.header("pspreference", in: response) }
    }

    /// An answer as the client reads it.
    static func decode<Answer: Decodable>(_ response: ProviderResponse) throws(AdyenFailure) -> Answer {
        try ProviderHTTPClient.decodeJSON(response, errorBody: AdyenServiceError.self, decorate: addPSPReference)
    }

    private static func escaped(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#"])) ?? segment
    }

    private static func queryEscaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
    }
}
