import Foundation

/// Why a JSON call to a provider did not give what was asked, with the provider's own error
/// body (`ErrorBody`) when one came back.
public enum ProviderCallFailure<ErrorBody: Hashable & Sendable>: Error, Hashable, Sendable, CustomStringConvertible {
    /// An answer outside 2xx, in the provider's error shape.
    case api(status: Int, body: ErrorBody)
    case transport(TransportFailure)
    case undecodable(status: Int, detail: String)

    public var description: String {
        switch self {
        case .api(let status, let body): "HTTP \(status): \(body)"
        case .transport(let failure): failure.description
        case .undecodable(let status, let detail): "HTTP \(status) with a body that is not the expected JSON (\(detail))"
        }
    }

    /// The request may have reached the provider, but no answer came back: a lost connection
    /// or a timeout after sending. Retrying blindly could act twice.
    public var responseLost: Bool {
        guard case .transport(let failure) = self else { return false }
        switch failure {
        case .connectionLost, .timedOut: return true
        case .connectionFailed, .cancelled, .other: return false
        }
    }
}

extension ProviderHTTPClient {
    /// Sends `body` as JSON (sorted keys, so a request reads the same in every log) and decodes
    /// a 2xx answer as `Answer` (an empty one as `{}`), anything else as `ErrorBody`; retried
    /// while `shouldRetry` says so, under `policy` (the client's own when nil).
    public func jsonCall<Body: Encodable, Answer: Decodable, ErrorBody: Decodable & Hashable & Sendable>(
        _ method: String, url: String, headers: [(name: String, value: String)], body: Body?, provider: String,
        errorBody: ErrorBody.Type, policy: RetryPolicy? = nil, shouldRetry: (ProviderCallFailure<ErrorBody>) -> Bool
    ) async throws(ProviderCallFailure<ErrorBody>) -> Answer {
        var headers = headers
        var data: Data?
        if let body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do { data = try encoder.encode(body) } catch { throw .undecodable(status: 0, detail: "could not encode: \(error)") }
            headers.append((name: "Content-Type", value: "application/json"))
        }
        let request = ProviderRequest(method: method, url: url, headers: headers, body: data)
        return try await withRetries(policy: policy, shouldRetry: shouldRetry) { (attempt: Int) async throws(ProviderCallFailure<ErrorBody>) -> Answer in
            let response: ProviderResponse
            do throws(TransportFailure) { response = try await send(request, provider: provider, attempt: attempt) } catch {
                throw ProviderCallFailure<ErrorBody>.transport(error)
            }
            let answer: Answer = try Self.decodeJSON(response, errorBody: ErrorBody.self)
            return answer
        }
    }

    /// A 2xx body as `Answer`, anything else as the provider's `ErrorBody`.
    public static func decodeJSON<Answer: Decodable, ErrorBody: Decodable & Hashable & Sendable>(
        _ response: ProviderResponse, errorBody: ErrorBody.Type
    ) throws(ProviderCallFailure<ErrorBody>) -> Answer {
        let decoder = JSONDecoder()
        if response.isSuccess {
            let body = response.status == 204 || response.body.isEmpty ? Data("{}".utf8) : response.body
            do { return try decoder.decode(Answer.self, from: body) } catch { throw .undecodable(status: response.status, detail: "\(error)") }
        }
        guard let error = try? decoder.decode(ErrorBody.self, from: response.body) else {
            throw .undecodable(status: response.status, detail: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        throw .api(status: response.status, body: error)
    }
}
