import Foundation

/// Removes secrets before anything is recorded: credential headers, secret-looking JSON
/// fields, and every configured secret value wherever it appears.
public struct Redactor: Sendable {
    public static let marker = "[REDACTED]"

    public static let secretHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "x-api-key", "cookie", "set-cookie",
    ]

    public static let secretFieldNames: Set<String> = [
        "client_secret", "clientsecret", "secret", "secretkey", "secret_key", "api_key", "apikey",
        "password", "authorization",
    ]

    /// Values that must never appear, such as a client id or an API key.
    public let secrets: [String]

    public init(secrets: [String] = []) {
        self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    public func adding(_ more: [String]) -> Redactor { Redactor(secrets: secrets + more) }

    public func header(name: String, value: String) -> HTTPExchange.Header {
        guard Self.secretHeaderNames.contains(name.lowercased()) else {
            return HTTPExchange.Header(name: name, value: text(value))
        }
        // Keep the scheme ("Basic", "Client", "Bearer") so a wrong scheme stays visible.
        let parts = value.split(separator: " ", maxSplits: 1)
        let kept = parts.count == 2 ? "\(parts[0]) \(Self.marker)" : Self.marker
        return HTTPExchange.Header(name: name, value: kept)
    }

    /// A body as text with secret fields and values replaced.
    public func body(_ data: Data?) -> String? {
        guard let data, !data.isEmpty else { return nil }
        guard let raw = String(data: data, encoding: .utf8) else {
            return "<\(data.count) bytes, not UTF-8>"
        }
        if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            Self.containsSecretField(object),
            let cleaned = try? JSONSerialization.data(
                withJSONObject: Self.redactingFields(object), options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]),
            let cleanedText = String(data: cleaned, encoding: .utf8)
        {
            return text(cleanedText)
        }
        return text(raw)
    }

    /// `value` with every configured secret replaced by the marker.
    public func text(_ value: String) -> String {
        secrets.reduce(value) { $0.replacingOccurrences(of: $1, with: Self.marker) }
    }

    private static func containsSecretField(_ object: Any) -> Bool {
        if let dictionary = object as? [String: Any] {
            return dictionary.contains { secretFieldNames.contains($0.key.lowercased()) || containsSecretField($0.value) }
        }
        if let array = object as? [Any] { return array.contains(where: containsSecretField) }
        return false
    }

    private static func redactingFields(_ object: Any) -> Any {
        if let dictionary = object as? [String: Any] {
            return dictionary.reduce(into: [String: Any]()) { result, entry in
                result[entry.key] = secretFieldNames.contains(entry.key.lowercased()) ? marker : redactingFields(entry.value)
            }
        }
        if let array = object as? [Any] { return array.map(redactingFields) }
        return object
    }
}
