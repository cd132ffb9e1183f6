import Foundation
import ProviderWire

/// Why no token came: the sandbox's refusal (naming the field and what it allows), no answer,
/// or an answer that is not a token.
public typealias WalletTokenFailure = ProviderCallFailure<WalletErrorBody>

extension WalletErrorBody: ProviderErrorBody {}

/// PassKit's part, played by the sandbox: `POST <baseURL>/wallet/tokens` turns what the customer
/// authorized on the sheet into the payment token (and Square nonce) the processor charges.
public struct WalletTokenClient: Sendable {
    public static let provider = "wallet"

    public let baseURL: String
    public let http: ProviderHTTPClient

    public init(baseURL: String, http: ProviderHTTPClient) {
        self.baseURL = baseURL
        self.http = http
    }

    /// Retried when nothing came back or the sandbox failed: issuing charges nothing, and the same
    /// transactionIdentifier is answered the same token.
    public func token(_ request: WalletTokenRequest) async throws(WalletTokenFailure) -> WalletTokenResponse {
        try await http.jsonCall(
            "POST", url: baseURL + "/wallet/tokens", headers: [(name: "Accept", value: "application/json")], body: request, provider: Self.provider,
            errorBody: WalletErrorBody.self, shouldRetry: Self.isRetryable)
    }

    public static func isRetryable(_ failure: WalletTokenFailure) -> Bool {
        switch failure {
        case .transport(let transport): transport != .cancelled
        case .api(let status, _): status >= 500 || status == 429
        case .undecodable(let status, _), .emptyBody(let status): status >= 500
        }
    }
}
