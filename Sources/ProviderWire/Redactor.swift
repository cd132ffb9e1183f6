import CheckoutModel
import Foundation

/// Removes secrets before anything is recorded: credential headers, secret-looking JSON
/// fields, and every configured secret value wherever it appears. The client's HTTP pane and the
/// sandbox's request journal redact with it alike.
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

    /// A header's value as it may be recorded.
    public func headerValue(name: String, value: String) -> String {
        guard Self.secretHeaderNames.contains(name.lowercased()) else { return text(value) }
        // Keep the scheme ("Basic", "Client", "Bearer") so a wrong scheme stays visible.
        let parts = value.split(separator: " ", maxSplits: 1)
        return parts.count == 2 ? "\(parts[0]) \(Self.marker)" : Self.marker
    }

    /// A body as text with secret fields and values replaced.
    public func body(_ data: Data?) -> String? {
        guard let data, !data.isEmpty else { return nil }
        guard let raw = String(data: data, encoding: .utf8) else {
            return "<\(data.count) bytes, not UTF-8>"
        }
        // Most bodies name no secret field: the byte scan says so without parsing them.
        if Self.mayHoldSecretField(data),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            Self.containsSecretField(object),
            let cleaned = try? JSONSerialization.data(
                withJSONObject: Self.redactingFields(object), options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]),
            let cleanedText = String(data: cleaned, encoding: .utf8)
        {
            return text(cleanedText)
        }
        return text(raw)
    }

    /// Query parameters whose values are credentials or capabilities (a page's per-request token
    /// `t`, an access token), besides the secret field names.
    public static let secretQueryNames: Set<String> = secretFieldNames.union(["t", "token", "access_token", "signature", "sig"])

    /// A path with its query kept but the values of secret parameters (`secretQueryNames`)
    /// replaced by the marker, and every configured secret replaced.
    public func pathAndQuery(_ target: String) -> String {
        // Searched as bytes: a search by Character breaks the text into graphemes as it goes.
        guard let offset = ByteScan.firstOffset(of: UInt8(ascii: "?"), in: target) else { return text(target) }
        let mark = target.utf8.index(target.utf8.startIndex, offsetBy: offset)
        let pairs = target[target.utf8.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decoded = (name.removingPercentEncoding ?? String(name)).lowercased()
            return Self.secretQueryNames.contains(decoded) ? "\(name)=\(Self.marker)" : String(pair)
        }
        return text(String(target[..<mark]) + "?" + pairs.joined(separator: "&"))
    }

    /// Whether `body(_:)` could change any field of a JSON body: false when no secret field name
    /// can be in it (none of their words appears, and no `\\u` escape could spell one), so a caller
    /// with many bodies (the sandbox's journal) skips parsing the rest.
    public static func mayHoldSecretField(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            // One pass: only a byte that can start a word (or an escape) is looked at further.
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") { return true }
                    continue
                }
                let lower = byte | 0x20
                guard lower == UInt8(ascii: "s") || lower == UInt8(ascii: "p") || lower == UInt8(ascii: "a") else { continue }
                for word in fieldWords where word[0] == lower && matches(bytes, at: index, word) { return true }
            }
            return false
        }
    }

    /// Every secret field name holds one of these words (each starts with s, p or a).
    private static let fieldWords: [[UInt8]] = ["secret", "password", "api_key", "apikey", "authorization"].map { Array($0.utf8) }

    /// Whether `word` (lower-case ASCII) starts at `index`, ignoring ASCII case.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ word: [UInt8]) -> Bool {
        guard index + word.count <= bytes.count else { return false }
        for offset in 1..<word.count where bytes[index + offset] | 0x20 != word[offset] | 0x20 { return false }
        return true
    }

    /// `value` with every configured secret replaced by the marker.
    public func text(_ value: String) -> String {
        // Most text holds no secret, and Foundation's search, which would say so, cost more than
        // the rest of a journal entry. In ASCII text only the secret's own bytes can match it
        // (elsewhere a Kelvin sign matches "K": canonically equivalent). The marker is ASCII, so
        // text that was ASCII stays so as secrets are replaced.
        guard !secrets.isEmpty else { return value }
        let ascii = ByteScan.isASCII(value)
        // Outside ASCII (a bank's Thai name), an ASCII secret can only be spelt otherwise by a
        // scalar whose canonical decomposition holds ASCII (é, the Kelvin sign); without one,
        // its own bytes are the only spelling, and Foundation's search (a millisecond over
        // a bank list) is asked only where they are.
        let literal = ascii || !value.unicodeScalars.contains(where: Self.decomposesToASCII)
        return secrets.reduce(value) { text, secret in
            if ascii || literal && ByteScan.isASCII(secret), !ByteScan.contains(text, secret) { return text }
            return text.replacingOccurrences(of: secret, with: Self.marker)
        }
    }

    /// Whether the scalar's canonical decomposition holds an ASCII character: the Latin letters
    /// with marks, the Greek question mark and varia, the Kelvin and Ångström signs, and ≠ ≮ ≯
    /// (all of Unicode's, which adds no new precomposed ones).
    public static func decomposesToASCII(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00C0...0x0233, 0x037E, 0x1E00...0x1EFF, 0x1FEF, 0x212A...0x212B, 0x2260, 0x226E...0x226F: true
        default: false
        }
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
