import CheckoutModel
import Foundation

/// One line a provider's client-side SDK wrote through the logger the app gave it (an SDK's
/// `logWithName:parameter:`-style delegate): a name and its parameters. Provider-neutral: any
/// provider's component logs through an `SDKLogger`, and the front ends show the lines in the
/// event list, as `{"event": "sdk_log", …}` with `--json`, and in transcripts.
///
/// Made safe on the way in, whoever builds it (a component, or a transcript read back): control
/// and bidirectional-format characters are escaped, names and values clipped, and a parameter
/// whose name says it holds a secret (a key, token, signature, password, session data, …) is
/// redacted, as are credentials inside a URL.
public struct SDKLogLine: Hashable, Sendable {
    public let name: String
    public let parameters: [String: String]

    public static let maxNameLength = 64
    public static let maxValueLength = 200
    public static let maxParameters = 16
    public static let redacted = "[redacted]"

    /// Words in a parameter's name that mean its value is never shown.
    static let secretWords = ["key", "secret", "token", "password", "passwd", "signature", "sessiondata", "authorization", "cookie", "credential", "cvv", "cvc"]

    public init(name: String, parameters: [String: String] = [:]) {
        let cleanName = Self.clean(name, limit: Self.maxNameLength)
        self.name = cleanName.isEmpty ? "log" : cleanName
        var kept: [String: String] = [:]
        for key in parameters.keys.sorted().prefix(Self.maxParameters) {
            let cleanKey = Self.clean(key, limit: Self.maxNameLength)
            guard !cleanKey.isEmpty, let value = parameters[key] else { continue }
            kept[cleanKey] = Self.isSecret(key) ? Self.redacted : Self.clean(Self.withoutURLCredentials(value), limit: Self.maxValueLength)
        }
        self.parameters = kept
    }

    /// `name k=v k2="v w"`, parameters in name order: the event list's line.
    public var summary: String {
        ([name] + parameters.keys.sorted().map { key in
            let value = parameters[key] ?? ""
            return "\(key)=" + (value.contains(" ") || value.isEmpty ? "\"\(value)\"" : value)
        }).joined(separator: " ")
    }

    static func isSecret(_ key: String) -> Bool {
        let folded = key.lowercased().filter { $0.isLetter }
        return secretWords.contains { folded.contains($0) }
    }

    /// `https://user:pass@host/…` → `https://[redacted]@host/…`.
    static func withoutURLCredentials(_ value: String) -> String {
        guard value.contains("://"), value.contains("@"), var parts = URLComponents(string: value), parts.user != nil || parts.password != nil else { return value }
        parts.user = nil
        parts.password = nil
        guard let bare = parts.string, let range = bare.range(of: "://") else { return redacted }
        return bare.replacingCharacters(in: range, with: "://\(redacted)@")
    }

    /// Control (C0, DEL, C1) and bidirectional-format characters as `\u{…}`; at most `limit` characters.
    static func clean(_ text: String, limit: Int) -> String {
        let safe = DisplaySafety.escaping(text)
        return safe.count > limit ? String(safe.prefix(limit - 1)) + "…" : safe
    }
}

/// Where a provider's SDK writes its log lines.
public typealias SDKLogger = @Sendable (SDKLogLine) -> Void
