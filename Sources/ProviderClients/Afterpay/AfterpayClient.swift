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

    /// Get Configuration: the merchant's order limits (HTTP Basic).
    public func merchantConfiguration() async throws(AfterpayFailure) -> AfterpayMerchantConfiguration {
        try await call("\(configuration.merchantBaseURL)/v2/configuration", body: Optional<Never>.none, authenticated: true, retrying: true)
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

    /// Lost answers and garbled successes are retried; Afterpay's answers are final.
    private func call<Body: Encodable, Answer: Decodable>(
        _ url: String, body: Body?, authenticated: Bool, retrying: Bool
    ) async throws(AfterpayFailure) -> Answer {
        var credentials: [ProviderHTTPClient.Header] = []
        if authenticated {
            let basic = Data("\(configuration.merchantID):\(configuration.secretKey)".utf8).base64EncodedString()
            credentials.append((name: "Authorization", value: "Basic \(basic)"))
        }
        // Slashes stay escaped (`\/`) in Afterpay's bodies, as they always were.
        return try await http.jsonCall(
            body == nil ? "GET" : "POST", url: url, headers: [(name: "Accept", value: "application/json")], body: body,
            extraHeaders: credentials, encoder: ProviderHTTPClient.jsonEncoder([.sortedKeys]), provider: Self.provider,
            errorBody: AfterpayError.self, policy: retrying ? nil : .never, shouldRetry: \.isRetryable)
    }

    /// An answer as the client reads it.
    static func decode<Answer: Decodable>(_ response: ProviderResponse) throws(AfterpayFailure) -> Answer {
        try ProviderHTTPClient.decodeJSON(response, errorBody: AfterpayError.self)
    }
}
