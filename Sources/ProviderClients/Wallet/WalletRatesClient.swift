import Foundation
import ProviderWire

/// Why the rates did not come: the service's error status, no answer at all, or an answer the
/// sheet cannot show.
public enum WalletRatesFailure: ProviderCallError, Hashable, Sendable, CustomStringConvertible {
    /// An answer outside 2xx, with the start of its body.
    case http(status: Int, body: String)
    case transport(TransportFailure)
    case undecodable(WalletWireError)

    public var description: String {
        switch self {
        case .http(let status, let body): "the rates service answered HTTP \(status)\(body.isEmpty ? "" : ": \(body)")"
        case .transport(let failure): "the rates service did not answer: \(failure)"
        case .undecodable(let error): "the rates service's answer cannot be shown: \(error)"
        }
    }

    /// A body that could not be read, named as the sheet names any unreadable answer.
    public static func undecodable(status: Int, detail: String) -> WalletRatesFailure {
        .undecodable(WalletWireError(field: "body", problem: "HTTP \(status): \(detail)"))
    }

    /// A GET changes nothing: any lost or failed answer may be asked again, but not a 4xx or
    /// an answer that came whole and wrong.
    public var isRetryable: Bool {
        switch self {
        case .transport(let failure): failure != .cancelled
        case .http(let status, _): status >= 500 || status == 429
        case .undecodable: false
        }
    }
}

/// The wallet sheet's shipping rates: `GET <endpoint>?street=&city=&state=&zip=&country=` (and
/// `weight_grams`) from the sandbox's `/rates` or the user's `--rates-url`, read strictly
/// (`WalletRatesDecoding`), retried once at the HTTP client's pace.
public struct WalletRatesClient: Sendable {
    public static let provider = "wallet"
    /// How much of an error body a failure carries.
    static let bodyExcerptLength = 200

    /// The rates URL itself; the query is appended to it.
    public let endpoint: String
    public let http: ProviderHTTPClient

    public init(endpoint: String, http: ProviderHTTPClient) {
        self.endpoint = endpoint
        self.http = http
    }

    public func rates(
        street: String, city: String, state: String, zip: String, country: String, weightGrams: Int?, currency: String? = nil
    ) async throws(WalletRatesFailure) -> [WalletRate] {
        var query: [(String, String)] = [("street", street), ("city", city), ("state", state), ("zip", zip), ("country", country)]
        if let weightGrams { query.append(("weight_grams", String(weightGrams))) }
        // The seed's shape prices in dollars; another currency is asked for by name.
        if let currency { query.append(("currency", currency)) }
        // Someone waits at the sheet: one retry at the client's pace, then the sheet says it failed.
        return try await http.jsonCall(
            "GET", url: Self.url(endpoint, query: query), headers: [(name: "Accept", value: "application/json")], body: Optional<Never>.none,
            provider: Self.provider, policy: http.retryPolicy.withMaxAttempts(2), shouldRetry: \.isRetryable
        ) { (response: ProviderResponse) throws(WalletRatesFailure) -> [WalletRate] in
            guard response.isSuccess else {
                throw .http(status: response.status, body: String(decoding: response.body.prefix(Self.bodyExcerptLength), as: UTF8.self))
            }
            do throws(WalletWireError) { return try WalletRatesDecoding.decode(response.body) } catch { throw .undecodable(error) }
        }
    }

    /// `endpoint` with the query appended: after `?`, or `&` when it already has a query (none
    /// when it ends in `?` or `&`), and before any `#fragment`.
    static func url(_ endpoint: String, query: [(String, String)]) -> String {
        var base = Substring(endpoint)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        let separator = !base.contains("?") ? "?" : (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&")
        let encoded = query.map { "\($0.0)=\(escaped($0.1))" }.joined(separator: "&")
        return String(base) + separator + encoded + String(fragment)
    }

    /// Unreserved characters only: a space is `%20`, `&`, `=`, `+` and `#` are escaped too.
    private static func escaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
