import Foundation
import ProviderWire

/// The calls the checkout flow makes to the Customer Request API.
public protocol CustomerRequestAPI: Sendable {
    /// Creates a request; every retry of this create reuses `idempotencyKey`.
    func create(_ params: CreateCustomerRequestParams, idempotencyKey: String) async throws(CustomerRequestFailure) -> CustomerRequest
    func retrieve(id: String, retryPolicy: RetryPolicy?) async throws(CustomerRequestFailure) -> CustomerRequest
    func update(id: String, with params: UpdateCustomerRequestParams) async throws(CustomerRequestFailure) -> CustomerRequest
}

extension CustomerRequestAPI {
    /// Creates a request with a fresh idempotency key, reused by every retry of this create.
    public func create(_ params: CreateCustomerRequestParams) async throws(CustomerRequestFailure) -> CustomerRequest {
        try await create(params, idempotencyKey: UUID().uuidString.lowercased())
    }
}

/// Cash App Pay's Customer Request API over the shared HTTP client.
public final class CustomerRequestClient: CustomerRequestAPI {
    public static let provider = "cashapp"

    public let configuration: CashAppConfiguration
    public let http: ProviderHTTPClient

    public init(
        configuration: CashAppConfiguration,
        http: ProviderHTTPClient) {
        self.configuration = configuration
        self.http = http
    }

    public func create(_ params: CreateCustomerRequestParams, idempotencyKey: String) async throws(CustomerRequestFailure) -> CustomerRequest {
        try await call("POST", url: configuration.requestsURL, body: CreateCustomerRequestBody(idempotencyKey: idempotencyKey, request: params))
    }

    public func retrieve(id: String, retryPolicy: RetryPolicy? = nil) async throws(CustomerRequestFailure) -> CustomerRequest {
        try await call("GET", url: url(for: id), body: Optional<Never>.none, retryPolicy: retryPolicy)
    }

    public func update(id: String, with params: UpdateCustomerRequestParams) async throws(CustomerRequestFailure) -> CustomerRequest {
        try await call("PATCH", url: url(for: id), body: UpdateCustomerRequestBody(request: params))
    }

    private func url(for id: String) -> String {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
        return configuration.requestsURL + "/" + escaped
    }

    /// Transport failures and garbled success bodies are retried; answers are final.
    private func call<Body: Encodable>(
        _ method: String, url: String, body: Body?, retryPolicy: RetryPolicy? = nil
    ) async throws(CustomerRequestFailure) -> CustomerRequest {
        try await http.jsonCall(
            method, url: url,
            headers: [(name: "Authorization", value: "Client \(configuration.clientID)"), (name: "Accept", value: "application/json")],
            body: body, encoder: CashAppJSON.encoder(), provider: Self.provider, policy: retryPolicy, shouldRetry: \.isRetryable,
            read: Self.decode)
    }

    /// Turns a response into a customer request or the failure it describes.
    public static func decode(_ response: ProviderResponse) throws(CustomerRequestFailure) -> CustomerRequest {
        guard response.isSuccess, !response.body.isEmpty else { throw .strict(response, decoder: CashAppJSON.decoder()) }
        do { return try CashAppJSON.decoder().decode(CustomerRequestEnvelope.self, from: response.body).request } catch {
            throw .undecodable(status: response.status, detail: ProviderHTTPClient.decodingDetail(error))
        }
    }
}
