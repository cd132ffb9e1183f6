import Foundation
import ProviderWire
import _CryptoExtras

/// Why an Antom call did not give a usable answer.
public enum AntomFailure: ProviderCallError, Hashable, Sendable, CustomStringConvertible {
    /// Antom answered, signed, with a result that is not `S` (the whole result is kept).
    case result(AntomResult)
    /// The answer's signature is missing or does not verify: it is not acted on.
    case unverified(status: Int, detail: String)
    /// Anything but HTTP 200 (Antom answers every result with 200).
    case http(status: Int, body: String)
    case transport(TransportFailure)
    case undecodable(status: Int, detail: String)

    public var description: String {
        switch self {
        case .result(let result): "\(result.resultCode) (\(result.resultStatus))\(result.resultMessage.map { ": \($0)" } ?? "")"
        case .unverified(let status, let detail): "HTTP \(status), answer rejected: \(detail)"
        case .http(let status, let body): "HTTP \(status): \(body)"
        case .transport(let failure): failure.description
        case .undecodable(let status, let detail): "HTTP \(status) with a body that is not Antom's JSON (\(detail))"
        }
    }
}

/// Antom's Payments API over the shared HTTP client: every request signed with the merchant's
/// key over its exact bytes, every answer's signature verified before it is read.
public struct AntomClient: Sendable {
    public static let provider = "antom"

    public let configuration: AntomConfiguration
    public let http: ProviderHTTPClient
    /// The request time to sign with; epoch milliseconds as Antom's docs show.
    private let now: @Sendable () -> Date

    public init(configuration: AntomConfiguration, http: ProviderHTTPClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.http = http
        self.now = now
    }

    /// createPaymentSession. Retried only where nothing can have happened twice: Antom treats
    /// the same paymentRequestId with the same body as one request, so a lost answer is retried too.
    public func createPaymentSession(_ request: AntomCreatePaymentSessionRequest) async throws(AntomFailure) -> AntomCreatePaymentSessionResponse {
        let answer: AntomCreatePaymentSessionResponse = try await call(AntomPaths.createPaymentSession, body: request)
        guard answer.paymentSessionData?.isEmpty == false else { throw .undecodable(status: 200, detail: "no paymentSessionData in a successful answer") }
        return answer
    }

    /// inquiryPayment; a non-`S` result is thrown (`U` ones after asking again), `S` carries the payment's status.
    public func inquiryPayment(_ request: AntomInquiryPaymentRequest) async throws(AntomFailure) -> AntomInquiryPaymentResponse {
        try await call(AntomPaths.inquiryPayment, body: request)
    }

    /// Transport failures, 5xx and `U` results are worth asking again with the same ids.
    public static func isRetryable(_ failure: AntomFailure) -> Bool {
        switch failure {
        case .transport(let transport): transport != .cancelled
        case .http(let status, _): status >= 500 || status == 429
        case .result(let result): result.resultStatus == "U" && result.resultCode != "PAYMENT_IN_PROCESS"
        case .unverified, .undecodable: false
        }
    }

    private func call<Body: Encodable, Answer: Decodable>(_ endpoint: String, body: Body) async throws(AntomFailure) -> Answer {
        let path = configuration.path(endpoint)
        // Three tries (the client's delays): Antom's own SDK does not retry at all, and a shopper waits.
        return try await http.jsonCall(
            "POST", url: configuration.baseURL + path, headers: [], body: body, extraHeaders: [(name: "client-id", value: configuration.clientID)],
            contentType: "application/json; charset=UTF-8", provider: Self.provider,
            policy: http.retryPolicy.withMaxAttempts(min(3, http.retryPolicy.maxAttempts)),
            sign: { (request: inout ProviderRequest) throws(AntomFailure) in try sign(&request, path: path) }, shouldRetry: Self.isRetryable
        ) { (response: ProviderResponse) throws(AntomFailure) -> Answer in
            // A result that is not S is thrown by `read`, inside the retries, so an unknown one (U) is asked again.
            try read(response, path: path)
        }
    }

    /// Signs the exact bytes with the merchant's key at the time of sending, every attempt anew.
    private func sign(_ request: inout ProviderRequest, path: String) throws(AntomFailure) {
        let time = String(Int64((now().timeIntervalSince1970 * 1000).rounded()))
        let content = AntomSignature.content(method: "POST", path: path, clientID: configuration.clientID, time: time, body: request.body ?? Data())
        let signature: String
        do { signature = try AntomSignature.sign(content, with: configuration.privateKey) } catch {
            throw .undecodable(status: 0, detail: "could not sign: \(error)")
        }
        request.headers += [(name: "Request-Time", value: time), (name: "Signature", value: AntomSignature.header(signature: signature))]
    }

    /// Checks the answer's signature (over its raw bytes), then decodes it; a result that is not `S` is thrown.
    func read<Answer: Decodable>(_ response: ProviderResponse, path: String) throws(AntomFailure) -> Answer {
        guard response.status == 200 else {
            throw .http(status: response.status, body: String(decoding: response.body.prefix(300), as: UTF8.self))
        }
        let result = try? JSONDecoder().decode(AntomResultOnly.self, from: response.body)
        let signatureHeader = ProviderHTTPClient.header("signature", in: response)
        let responseTime = ProviderHTTPClient.header("response-time", in: response)
        if signatureHeader == nil, responseTime == nil, let result, result.result.resultStatus != "S" {
            // Antom leaves some failures unsigned; they are believed only because they do nothing.
            throw .result(result.result)
        }
        guard let signatureHeader, let responseTime else {
            throw .unverified(status: response.status, detail: "the answer carries no signature and response-time")
        }
        guard let signature = AntomSignature.signatureValue(ofHeader: signatureHeader) else {
            throw .unverified(status: response.status, detail: "the signature header is not algorithm=RSA256")
        }
        let signer = ProviderHTTPClient.header("client-id", in: response) ?? configuration.clientID
        let content = AntomSignature.content(method: "POST", path: path, clientID: signer, time: responseTime, body: response.body)
        guard AntomSignature.verify(signature, of: content, with: configuration.providerPublicKey) else {
            throw .unverified(status: response.status, detail: "the signature does not verify with Antom's public key")
        }
        if let result, !result.result.succeeded { throw .result(result.result) }
        do { return try JSONDecoder().decode(Answer.self, from: response.body) } catch {
            throw .undecodable(status: response.status, detail: "\(error)")
        }
    }
}
