import Foundation
import PostgresNIO

/// What went wrong with a PostgreSQL store, said so a person can act on it. No case carries the
/// password: URLs appear redacted, and text from the database or the network is scrubbed.
public enum PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `--store` URL is malformed: which part, and why.
    case invalidURL(field: String, reason: String)
    /// The database could not be reached or refused us at start (closed port, wrong password,
    /// no such database).
    case unreachable(url: String, reason: String)
    /// The database's schema is newer than this build knows: it was migrated by a later checkout.
    case schemaTooNew(url: String, database: Int, known: Int)
    /// An operation on a store failed (the database went away, a statement failed).
    case failed(operation: String, store: String, reason: String)
    /// A kept record no longer decodes as the store's record type.
    case undecodable(store: String, key: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let field, let reason):
            "invalid PostgreSQL URL: \(field): \(reason)"
        case .unreachable(let url, let reason):
            "cannot use the PostgreSQL database at \(url): \(reason)"
        case .schemaTooNew(let url, let database, let known):
            "the PostgreSQL database at \(url) has sandbox schema version \(database), newer than this checkout knows "
                + "(version \(known)): upgrade checkout, or point --store at another database"
        case .failed(let operation, let store, let reason):
            "PostgreSQL store \(store): \(operation) failed: \(reason)"
        case .undecodable(let store, let key, let reason):
            "PostgreSQL store \(store): the record \(key) does not decode: \(reason)"
        }
    }

    /// Whether the database itself is unavailable (answer 503 and try again later) rather than
    /// a request or a record being wrong.
    public var isUnavailable: Bool {
        switch self {
        case .unreachable, .failed: true
        case .invalidURL, .schemaTooNew, .undecodable: false
        }
    }

    /// What a database or network error says, without the password: the server's message and
    /// SQLSTATE, or the connection's failure.
    static func reason(_ error: any Error, at location: PostgresLocation) -> String {
        let text: String
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                text = message + state
            } else if let underlying = error.underlying {
                let detail = String(describing: underlying)
                // English system messages, matched whatever the user's locale (a Turkish one's
                // case folding would miss "tImed out").
                let folded = detail.lowercased()
                text =
                    if folded.contains("connection refused") {
                        "connection refused (is PostgreSQL listening there?)"
                    } else if detail.contains("UnknownHost") || folded.contains("name or service not known") {
                        "the host \(location.host) is not known (check its name, or your DNS)"
                    } else if folded.contains("timed out") || folded.contains("timeout") {
                        "no answer in time (\(detail))"
                    } else {
                        "\(error.code): \(detail)"
                    }
            } else {
                text = "\(error.code)"
            }
        } else if let error = error as? PostgresStoreError {
            text = error.description
        } else if String(describing: error).contains("CircuitBreakerTripped") {
            // The pool stops dialling for a while after connections fail, then tries again itself.
            text = "the database cannot be reached (the connection pool retries on its own, backing off)"
        } else {
            text = String(describing: error)
        }
        return location.scrubbing(text)
    }
}
