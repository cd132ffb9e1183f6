import Foundation
import ProviderWire

/// Afterpay's checkout, sign, validate and capture calls over the shared HTTP client.
public struct AfterpayClient: Sendable {
    public static let provider = "afterpay"

    public let configuration: AfterpayConfiguration
    public let http: ProviderHTTPClient

    public init(configuration: AfterpayConfiguration, http: ProviderHTTPClient) {
        self.configuration = configuration
        self.http = http
    }

    public func createCheckout(_ request: AfterpayCheckoutRequest) async throws(AfterpayFailure) -> AfterpayCheckoutResponse {
        try await call("\(configuration.merchantBaseURL)/v2/checkouts", body: request, authenticated: true, retrying: false)
    }

    public func signPayment(token: String) async throws(AfterpayFailure) -> AfterpaySignResponse {
        try await call("\(configuration.signingBaseURL)/v2/payments/sign-payment", body: AfterpaySignRequest(token: token), authenticated: false, retrying: true)
    }

    public func validatePayment(_ request: AfterpayValidateRequest) async throws(AfterpayFailure) -> AfterpayValidateResponse {
        try await call("\(configuration.signingBaseURL)/v2/payments/validate-payment", body: request, authenticated: false, retrying: true)
    }

    /// Capture is idempotent on the token, so a lost response is safely retried.
    public func capture(_ request: AfterpayCaptureRequest) async throws(AfterpayFailure) -> AfterpayPayment {
        try await call("\(configuration.merchantBaseURL)/v2/payments/capture", body: request, authenticated: true, retrying: true)
    }

    /// Get Payment By Token: the payment a capture made, if any (404 `not_found` when none).
    public func payment(token: String) async throws(AfterpayFailure) -> AfterpayPayment {
        let escaped = token.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? token
        return try await call("\(configuration.merchantBaseURL)/v2/payments/token:\(escaped)", body: Optional<Never>.none, authenticated: true, retrying: true)
    }

    private func call<Body: Encodable, Answer: Decodable>(
        _ url: String, body: Body?, authenticated: Bool, retrying: Bool
    ) async throws(AfterpayFailure) -> Answer {
        var headers: [(name: String, value: String)] = [
            (name: "Accept", value: "application/json"), (name: "Content-Type", value: "application/json"),
        ]
        if authenticated {
            let credentials = Data("\(configuration.merchantID):\(configuration.secretKey)".utf8).base64EncodedString()
            headers.append((name: "Authorization", value: "Basic \(credentials)"))
        }
        var data: Data?
        if let body {
            let encoder = JSONEncoder()
            // Sorted keys: the same request reads the same in every log and transcript.
            encoder.outputFormatting = [.sortedKeys]
            do { data = try encoder.encode(body) } catch { throw .undecodable(status: 0, detail: "could not encode: \(error)") }
        } else {
            headers.removeAll { $0.name == "Content-Type" }
        }
        let request = ProviderRequest(method: data == nil ? "GET" : "POST", url: url, headers: headers, body: data)
        return try await http.withRetries(
            policy: retrying ? nil : .never, shouldRetry: { (failure: AfterpayFailure) in failure.isRetryable }
        ) { (attempt: Int) async throws(AfterpayFailure) -> Answer in
            let response: ProviderResponse
            do throws(TransportFailure) { response = try await http.send(request, provider: Self.provider, attempt: attempt) } catch {
                throw .transport(error)
            }
            return try Self.decode(response)
        }
    }

    static func decode<Answer: Decodable>(_ response: ProviderResponse) throws(AfterpayFailure) -> Answer {
        let decoder = JSONDecoder()
        if response.isSuccess {
            do { return try decoder.decode(Answer.self, from: response.body) } catch {
                throw .undecodable(status: response.status, detail: "\(error)")
            }
        }
        guard let error = try? decoder.decode(AfterpayError.self, from: response.body) else {
            throw .undecodable(status: response.status, detail: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        throw .api(status: response.status, error: error)
    }
}
