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
        let body = CreateCustomerRequestBody(idempotencyKey: idempotencyKey, request: params)
        return try await call(method: "POST", url: configuration.requestsURL, body: try encode(body))
    }

    public func retrieve(id: String, retryPolicy: RetryPolicy? = nil) async throws(CustomerRequestFailure) -> CustomerRequest {
        try await call(method: "GET", url: url(for: id), body: nil, retryPolicy: retryPolicy)
    }

    public func update(id: String, with params: UpdateCustomerRequestParams) async throws(CustomerRequestFailure) -> CustomerRequest {
        try await call(method: "PATCH", url: url(for: id), body: try encode(UpdateCustomerRequestBody(request: params)))
    }

    private func url(for id: String) -> String {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
        return configuration.requestsURL + "/" + escaped
    }

    private func encode<Body: Encodable>(_ body: Body) throws(CustomerRequestFailure) -> Data {
        do { return try CashAppJSON.encoder().encode(body) } catch {
            throw .undecodable(status: 0, detail: "could not encode the request: \(error)")
        }
    }

    private func call(method: String, url: String, body: Data?, retryPolicy: RetryPolicy? = nil) async throws(CustomerRequestFailure) -> CustomerRequest {
        var headers: [(name: String, value: String)] = [
            (name: "Authorization", value: "Client \(configuration.clientID)"),
            (name: "Accept", value: "application/json"),
        ]
        if body != nil { headers.append((name: "Content-Type", value: "application/json")) }
        let request = ProviderRequest(method: method, url: url, headers: headers, body: body)
        return try await http.withRetries(policy: retryPolicy, shouldRetry: { (failure: CustomerRequestFailure) in failure.isRetryable }) {
            (attempt: Int) async throws(CustomerRequestFailure) -> CustomerRequest in
            let response: ProviderResponse
            do throws(TransportFailure) { response = try await http.send(request, provider: Self.provider, attempt: attempt) } catch {
                throw .transport(error)
            }
            return try Self.decode(response)
        }
    }

    /// Turns a response into a customer request or the failure it describes.
    public static func decode(_ response: ProviderResponse) throws(CustomerRequestFailure) -> CustomerRequest {
        guard response.isSuccess, !response.body.isEmpty else { throw failure(for: response) }
        do { return try CashAppJSON.decoder().decode(CustomerRequestEnvelope.self, from: response.body).request } catch {
            throw .undecodable(status: response.status, detail: Self.describe(error))
        }
    }

    /// The failure an error response (or an empty one) stands for.
    public static func failure(for response: ProviderResponse) -> CustomerRequestFailure {
        guard !response.body.isEmpty else { return .emptyBody(status: response.status) }
        do {
            return .api(status: response.status, errors: try CashAppJSON.decoder().decode(CashAppErrorBody.self, from: response.body).errors)
        } catch {
            return .undecodable(status: response.status, detail: Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return String(describing: error) }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "missing \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        @unknown default:
            return String(describing: error)
        }
    }
}
