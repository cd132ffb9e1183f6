import Foundation
import Hummingbird
import ProviderWire

/// What every Adyen endpoint checks where a request enters: the `/vNN` version, the
/// `X-API-Key`, the body's JSON and the merchant account.
struct AdyenRequestReader {
    let limits: SandboxLimits

    /// Adyen's longest documented limits for the ids and texts the sandbox stores.
    static let maxIdempotencyKeyLength = 64
    static let maxMerchantAccountLength = 80
    static let maxKeyLength = 512

    /// `v` then digits, as Adyen's versions are; anything else is not an Adyen path (404).
    static func isVersion(_ segment: String) -> Bool {
        segment.count >= 2 && segment.count <= 4 && segment.hasPrefix("v") && segment.dropFirst().allSatisfy(\.isASCII) && segment.dropFirst().allSatisfy(\.isNumber)
    }

    /// The version parameter checked, then the API key.
    func authenticate(_ request: Request, _ context: SandboxRequestContext) throws(AdyenRejection) -> String {
        guard Self.isVersion(context.parameters.get("version") ?? "") else {
            throw AdyenRejection(.notFound, "000", "No Adyen API version in \(request.uri.path): paths start /v71/ or /v72/.")
        }
        // HTTPFields compares names case-insensitively: `x-api-key` (the Python library) matches.
        guard let key = request.headers.value(HTTPFields.Element.Name("X-API-Key")!), key.hasPrefix(AdyenMagic.apiKeyPrefix), key.utf8.count <= Self.maxKeyLength else {
            throw AdyenRejection.unauthorized
        }
        return key
    }

    /// The `Idempotency-Key` header, if any (at most 64 characters, as Adyen allows).
    func idempotencyKey(_ request: Request) throws(AdyenRejection) -> String? {
        guard let key = request.headers.value(HTTPFields.Element.Name("Idempotency-Key")!) else { return nil }
        guard !key.isEmpty, key.utf8.count <= Self.maxIdempotencyKeyLength else {
            throw AdyenRejection.invalid("702", "Idempotency-Key must be 1 to \(Self.maxIdempotencyKeyLength) characters.")
        }
        return key
    }

    func body(_ request: Request) async throws(AdyenRejection) -> Data {
        do { return try await request.readBody(limit: limits.maxBodyBytes) } catch let error as BodyTooLarge {
            let detail = "\(error)"
            throw AdyenRejection(.contentTooLarge, "702", detail.prefix(1).uppercased() + detail.dropFirst() + ".")
        } catch {
            throw AdyenRejection.malformed("the request body could not be read")
        }
    }

    /// Decodes `data`, naming the field that is missing or of the wrong type.
    func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws(AdyenRejection) -> Body {
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw AdyenRejection.malformed("the body is not a JSON object")
        }
        do { return try JSONDecoder().decode(Body.self, from: data) } catch let error as DecodingError {
            throw AdyenRejection.malformed(Self.explain(error))
        } catch {
            throw AdyenRejection.malformed("\(error)")
        }
    }

    /// The merchant account: present, bounded, and not the magic unknown one.
    static func checkMerchant(_ account: String) throws(AdyenRejection) {
        guard !account.isEmpty else { throw AdyenRejection.invalid("14_0", "Required field 'merchantAccount' is not provided.") }
        guard account.utf8.count <= maxMerchantAccountLength else {
            throw AdyenRejection.invalid("702", "merchantAccount is longer than \(maxMerchantAccountLength) characters.")
        }
        guard account != AdyenMagic.unknownMerchantAccount else { throw AdyenRejection.invalidMerchant() }
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ key: CodingKey? = nil) -> String {
            ((context.codingPath + (key.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "Required field '\(path(context, key))' is not provided."
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "Field '\(path(context))' has the wrong type."
        case .dataCorrupted(let context): return "Field '\(path(context))' is invalid."
        @unknown default: return "the body does not match this endpoint"
        }
    }
}
