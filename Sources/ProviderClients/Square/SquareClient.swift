import Foundation
import ProviderWire

/// What Square answers when a call fails: its errors and, for a declined card, the FAILED payment.
public struct SquareErrorBody: Codable, Hashable, Sendable, CustomStringConvertible, ProviderErrorBody {
    public var errors: [SquareError]
    public var payment: SquarePayment?

    public init(errors: [SquareError], payment: SquarePayment? = nil) {
        self.errors = errors
        self.payment = payment
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        errors = try container.decode([SquareError].self, forKey: .errors)
        payment = try container.decodeIfPresent(SquarePayment.self, forKey: .payment)
    }

    public var description: String {
        errors.map { "\($0.category) \($0.code)\($0.field.map { " (\($0))" } ?? "")\($0.detail.map { ": \($0)" } ?? "")" }.joined(separator: "; ")
    }
}

public typealias SquareFailure = ProviderCallFailure<SquareErrorBody>

/// Square's Payments API over the shared HTTP client: create, get, list, update (the tip),
/// complete, cancel and cancel by idempotency key.
public struct SquareClient: Sendable {
    public static let provider = "square"

    public let configuration: SquareConfiguration
    public let http: ProviderHTTPClient

    public init(configuration: SquareConfiguration, http: ProviderHTTPClient) {
        self.configuration = configuration
        self.http = http
    }

    /// CreatePayment. A lost answer is NOT retried here: the request may have charged the card,
    /// and the caller recovers the Square way (list, then a new key). Refused connections,
    /// Square's 5xx and 429 are retried with the same idempotency key.
    public func createPayment(_ request: SquareCreatePaymentRequest) async throws(SquareFailure) -> SquarePayment {
        let answer: SquarePaymentResponse = try await call("POST", "/v2/payments", body: request) { failure in
            failure.responseLost ? false : Self.isRetryable(failure)
        }
        return try Self.payment(in: answer)
    }

    public func getPayment(id: String) async throws(SquareFailure) -> SquarePayment {
        let answer: SquarePaymentResponse = try await call("GET", "/v2/payments/\(Self.escaped(id))", body: Optional<Never>.none)
        return try Self.payment(in: answer)
    }

    /// ListPayments, newest first, from `begin` (RFC 3339) on; Square has no reference filter.
    public func listPayments(beginTime: String?, limit: Int = 100, cursor: String? = nil) async throws(SquareFailure) -> SquareListPaymentsResponse {
        var query = ["sort_order=DESC", "limit=\(max(1, min(limit, 100)))"]
        if let beginTime { query.append("begin_time=\(Self.queryEscaped(beginTime))") }
        if let cursor { query.append("cursor=\(Self.queryEscaped(cursor))") }
        if let location = configuration.locationID { query.append("location_id=\(Self.queryEscaped(location))") }
        return try await call("GET", "/v2/payments?" + query.joined(separator: "&"), body: Optional<Never>.none)
    }

    public func completePayment(id: String, versionToken: String?) async throws(SquareFailure) -> SquarePayment {
        let answer: SquarePaymentResponse = try await call(
            "POST", "/v2/payments/\(Self.escaped(id))/complete", body: SquareCompletePaymentRequest(versionToken: versionToken))
        return try Self.payment(in: answer)
    }

    /// UpdatePayment: the tip of an APPROVED payment, against `versionToken` (Square answers
    /// VERSION_MISMATCH when the payment changed since). Retried with the same idempotency key,
    /// which Square answers with the payment as the first call left it.
    public func updatePayment(id: String, tip: SquareMoney, versionToken: String?, idempotencyKey: String) async throws(SquareFailure) -> SquarePayment {
        let body = SquareUpdatePaymentRequest(idempotencyKey: idempotencyKey, payment: .init(tipMoney: tip, versionToken: versionToken))
        let answer: SquarePaymentResponse = try await call("PUT", "/v2/payments/\(Self.escaped(id))", body: body)
        return try Self.payment(in: answer)
    }

    public func cancelPayment(id: String) async throws(SquareFailure) -> SquarePayment {
        let answer: SquarePaymentResponse = try await call("POST", "/v2/payments/\(Self.escaped(id))/cancel", body: [String: String]())
        return try Self.payment(in: answer)
    }

    /// CancelPaymentByIdempotencyKey: voids whatever the key created; a no-op when it created nothing.
    public func cancelPayment(idempotencyKey: String) async throws(SquareFailure) {
        let _: Empty = try await call("POST", "/v2/payments/cancel", body: SquareCancelByIdempotencyKeyRequest(idempotencyKey: idempotencyKey))
    }

    private struct Empty: Decodable {}

    private static func payment(in answer: SquarePaymentResponse) throws(SquareFailure) -> SquarePayment {
        guard let payment = answer.payment else { throw .undecodable(status: 200, detail: "no payment in the answer") }
        return payment
    }

    /// Lost answers of reads and Square's own outages are retried; a 4xx answer is final.
    public static func isRetryable(_ failure: SquareFailure) -> Bool { failure.isRetryable || failure.isOutage }

    private func call<Body: Encodable, Answer: Decodable>(
        _ method: String, _ path: String, body: Body?, shouldRetry: ((SquareFailure) -> Bool)? = nil
    ) async throws(SquareFailure) -> Answer {
        let headers: [(name: String, value: String)] = [
            (name: "Accept", value: "application/json"), (name: "Authorization", value: "Bearer \(configuration.accessToken)"),
            (name: "Square-Version", value: SquareConfiguration.apiVersion),
        ]
        return try await http.jsonCall(
            method, url: configuration.baseURL + path, headers: headers, body: body, provider: Self.provider, errorBody: SquareErrorBody.self,
            shouldRetry: shouldRetry ?? Self.isRetryable)
    }

    private static func escaped(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#"])) ?? segment
    }

    private static func queryEscaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
    }
}
