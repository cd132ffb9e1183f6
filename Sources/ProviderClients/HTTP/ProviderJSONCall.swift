import Foundation

extension ProviderHTTPClient {
    public typealias Header = (name: String, value: String)

    /// The encoder of request bodies: sorted keys, so a request reads the same in every log.
    public static func jsonEncoder(_ formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return encoder
    }

    /// The one way a client calls its provider. `body` (encoded by `encoder`) goes after
    /// `headers`, announced by a `Content-Type` header, then come `extraHeaders`; each attempt
    /// is signed by `sign` when given (a signature that covers the time of sending) and its
    /// answer read by `read`. Retried while `shouldRetry` says so, under `policy` (the
    /// client's own when nil).
    public func jsonCall<Body: Encodable, Answer, Failure: ProviderCallError>(
        _ method: String, url: String, headers: [Header], body: Body?, extraHeaders: [Header] = [],
        contentType: String = "application/json", encoder: JSONEncoder = ProviderHTTPClient.jsonEncoder(), provider: String, policy: RetryPolicy? = nil,
        sign: ((inout ProviderRequest) throws(Failure) -> Void)? = nil, shouldRetry: (Failure) -> Bool,
        read: (ProviderResponse) throws(Failure) -> Answer
    ) async throws(Failure) -> Answer {
        var headers = headers
        var data: Data?
        if let body {
            do { data = try encoder.encode(body) } catch { throw .undecodable(status: 0, detail: "could not encode: \(error)") }
            headers.append((name: "Content-Type", value: contentType))
        }
        let request = ProviderRequest(method: method, url: url, headers: headers + extraHeaders, body: data)
        return try await withRetries(policy: policy, shouldRetry: shouldRetry) { (attempt: Int) async throws(Failure) -> Answer in
            var signed = request
            if let sign { try sign(&signed) }
            let response: ProviderResponse
            do throws(TransportFailure) { response = try await send(signed, provider: provider, attempt: attempt) } catch {
                throw .transport(error)
            }
            return try read(response)
        }
    }

    /// `jsonCall` reading a 2xx answer as `Answer` (an empty one as `{}`) and anything else as
    /// the provider's `ErrorBody`, which `decorate` may complete from the response.
    public func jsonCall<Body: Encodable, Answer: Decodable, ErrorBody: ProviderErrorBody & Decodable>(
        _ method: String, url: String, headers: [Header], body: Body?, extraHeaders: [Header] = [],
        encoder: JSONEncoder = ProviderHTTPClient.jsonEncoder(), provider: String, errorBody: ErrorBody.Type, policy: RetryPolicy? = nil,
        decorate: ((inout ErrorBody, ProviderResponse) -> Void)? = nil, shouldRetry: (ProviderCallFailure<ErrorBody>) -> Bool
    ) async throws(ProviderCallFailure<ErrorBody>) -> Answer {
        try await jsonCall(
            method, url: url, headers: headers, body: body, extraHeaders: extraHeaders, encoder: encoder, provider: provider, policy: policy,
            shouldRetry: shouldRetry
        ) { (response: ProviderResponse) throws(ProviderCallFailure<ErrorBody>) -> Answer in
            try Self.decodeJSON(response, errorBody: ErrorBody.self, decorate: decorate)
        }
    }

    /// A 2xx body as `Answer`, anything else as the provider's `ErrorBody` (completed by `decorate`).
    public static func decodeJSON<Answer: Decodable, ErrorBody: ProviderErrorBody & Decodable>(
        _ response: ProviderResponse, errorBody: ErrorBody.Type, decorate: ((inout ErrorBody, ProviderResponse) -> Void)? = nil
    ) throws(ProviderCallFailure<ErrorBody>) -> Answer {
        let decoder = JSONDecoder()
        if response.isSuccess {
            let body = response.status == 204 || response.body.isEmpty ? Data("{}".utf8) : response.body
            do { return try decoder.decode(Answer.self, from: body) } catch { throw .undecodable(status: response.status, detail: "\(error)") }
        }
        guard var error = try? decoder.decode(ErrorBody.self, from: response.body) else {
            throw .undecodable(status: response.status, detail: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        decorate?(&error, response)
        throw .api(status: response.status, body: error)
    }

    /// The first value of header `name` (lowercase) in `response`.
    public static func header(_ name: String, in response: ProviderResponse) -> String? {
        response.headers.first { $0.name.lowercased() == name }?.value
    }
}
