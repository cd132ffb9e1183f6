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
    public func payWithWallet(_ request: AdyenApplePayPaymentRequest, idempotencyKey: String) async throws(AdyenFailure) -> AdyenPaymentResponse {
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

    public func storedPaymentMethods() async throws(AdyenFailure) -> AdyenStoredPaymentMethodsResponse {
        try await call("GET", "/storedPaymentMethods?\(shopperQuery)", body: Optional<Never>.none, idempotencyKey: nil)
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

    private func call<Body: Encodable, Answer: Decodable>(
        _ method: String, _ path: String, body: Body?, idempotencyKey: String?
    ) async throws(AdyenFailure) -> Answer {
        var headers: [(name: String, value: String)] = [
            (name: "Accept", value: "application/json"), (name: "X-API-Key", value: configuration.apiKey),
        ]
        var data: Data?
        if let body {
            let encoder = JSONEncoder()
            // Sorted keys: the same request reads the same in every log and transcript.
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do { data = try encoder.encode(body) } catch { throw .undecodable(status: 0, detail: "could not encode: \(error)") }
            headers.append((name: "Content-Type", value: "application/json"))
        }
        if let idempotencyKey { headers.append((name: "Idempotency-Key", value: idempotencyKey)) }
        let request = ProviderRequest(method: method, url: configuration.baseURL + path, headers: headers, body: data)
        return try await http.withRetries(policy: nil, shouldRetry: { (failure: AdyenFailure) in failure.isRetryable }) {
            (attempt: Int) async throws(AdyenFailure) -> Answer in
            let response: ProviderResponse
            do throws(TransportFailure) { response = try await http.send(request, provider: Self.provider, attempt: attempt) } catch {
                throw .transport(error)
            }
            return try Self.decode(response)
        }
    }

    static func decode<Answer: Decodable>(_ response: ProviderResponse) throws(AdyenFailure) -> Answer {
        let decoder = JSONDecoder()
        if response.isSuccess {
            let body = response.status == 204 || response.body.isEmpty ? Data("{}".utf8) : response.body
            do { return try decoder.decode(Answer.self, from: body) } catch {
                throw .undecodable(status: response.status, detail: "\(error)")
            }
        }
        guard var error = try? decoder.decode(AdyenServiceError.self, from: response.body) else {
            throw .undecodable(status: response.status, detail: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        // Adyen's library reads the reference from the body, else from the header.
        if error.pspReference == nil {
            error.pspReference = response.headers.first { $0.name.lowercased() == "pspreference" }?.value
        }
        throw .api(status: response.status, error: error)
    }

    private static func escaped(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#"])) ?? segment
    }

    private static func queryEscaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
    }
}
