import CheckoutModel
import Foundation

/// Where a PostgreSQL store lives, read from `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too; `?sslmode=disable|prefer|require`). Its description is the redacted URL:
/// the password never leaves this value except to the database itself.
struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Plain TCP, as a throw-away local cluster serves.
        case disable
        /// TLS when the server offers it (libpq's default).
        case prefer
        /// TLS or no connection.
        case require
    }

    var user: String
    var password: String?
    var host: String
    var port: Int
    var database: String
    var tls: TLSMode
    /// The schema the store's tables live in (`search_path`): nil for the user's default. Tests
    /// give each run a schema of its own; a URL does not set it.
    var schema: String?

    init(
        user: String, password: String? = nil, host: String, port: Int = 5432, database: String, tls: TLSMode = .prefer,
        schema: String? = nil
    ) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.tls = tls
        self.schema = schema
    }

    /// Reads a URL, naming the field that is wrong (never echoing the password).
    init(parsing text: String) throws(PostgresStoreError) {
        let trimmed = text.trimmedOfWhitespace
        guard let schemeEnd = trimmed.range(of: "://") else {
            throw .invalidURL(field: "scheme", reason: "expected postgres://USER[:PASSWORD]@HOST:PORT/DATABASE")
        }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .invalidURL(field: "scheme", reason: "\"\(scheme)\" is not postgres:// or postgresql://")
        }
        // URLComponents splits the rest (percent-decoding the user and password); it is given
        // one scheme it knows the shape of.
        guard let components = URLComponents(string: "postgres://" + trimmed[schemeEnd.upperBound...]) else {
            throw .invalidURL(field: "URL", reason: "not a URL of the form postgres://USER[:PASSWORD]@HOST:PORT/DATABASE")
        }
        guard let user = components.user, !user.isEmpty else {
            throw .invalidURL(field: "user", reason: "missing (postgres://USER@HOST:PORT/DATABASE)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidURL(field: "host", reason: "missing (postgres://USER@HOST:PORT/DATABASE)")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw .invalidURL(field: "port", reason: "\(port) is not between 1 and 65535")
        }
        var path = components.path
        if path.hasPrefix("/") { path.removeFirst() }
        guard !path.isEmpty else {
            throw .invalidURL(field: "database", reason: "missing (postgres://USER@HOST:PORT/DATABASE)")
        }
        guard !path.contains("/") else {
            throw .invalidURL(field: "database", reason: "\"\(path)\" is not one name")
        }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = TLSMode(rawValue: value) else {
                    let known = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .invalidURL(field: "sslmode", reason: "\"\(item.value ?? "")\" is not one of \(known)")
                }
                tls = mode
            default:
                throw .invalidURL(field: item.name, reason: "not a setting this sandbox reads (only sslmode)")
            }
        }
        self.init(
            user: user, password: components.password.flatMap { $0.isEmpty ? nil : $0 } ?? Self.environmentPassword, host: host, port: port,
            database: path, tls: tls)
    }

    /// libpq's PGPASSWORD, used when the URL has none: a password kept out of argv (`ps`) and history.
    static var environmentPassword: String? {
        ProcessInfo.processInfo.environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The URL with the password replaced by `***`: what messages, logs and banners show.
    var redacted: String {
        let credentials = password == nil ? user : "\(user):***"
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let query = tls == .prefer ? "" : "?sslmode=\(tls.rawValue)"
        return "postgres://\(credentials)@\(hostPart):\(port)/\(database)\(query)"
    }

    var description: String { redacted }

    /// `text` with the password (if any) masked: for messages that came from elsewhere.
    func scrubbing(_ text: String) -> String {
        guard let password, !password.isEmpty else { return text }
        return text.replacingOccurrences(of: password, with: "***")
    }
}
