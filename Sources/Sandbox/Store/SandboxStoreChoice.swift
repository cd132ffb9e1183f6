import Foundation
import ServiceLifecycle

/// Where `checkout sandbox` keeps its state: this process's memory (the default, and always for
/// the sandbox `checkout` and `checkout run` embed), or a PostgreSQL database several instances share.
public enum SandboxStoreChoice: Sendable, Hashable, CustomStringConvertible {
    case memory
    /// `url` is `postgres://USER[:PASSWORD]@HOST:PORT/DB`; `poolSize` connections at most.
    case postgres(url: String, poolSize: Int)

    /// The connections a PostgreSQL store opens at most when none is asked for.
    public static let defaultPoolSize = 8
    /// The pool sizes accepted.
    public static let poolSizes = 1...256

    /// Safe to print: the database's URL without its password.
    public var description: String {
        switch self {
        case .memory: "memory"
        case .postgres(let url, let poolSize): "\(SandboxStoreURL.redacting(url)) (pool \(poolSize))"
        }
    }
}

/// The sandbox could not open the store it was told to use. Its description never shows a password.
public struct SandboxStoreStartError: Error, CustomStringConvertible, Sendable {
    public let store: SandboxStoreChoice
    public let reason: String

    public init(store: SandboxStoreChoice, reason: String) {
        self.store = store
        self.reason = reason
    }

    public var description: String { "the sandbox could not use the store \(store): \(reason)" }
}

extension SandboxSettings {
    /// Keeps every provider's records where `choice` says; with `reset`, a database is emptied
    /// when it starts (after its schema is applied, before anything is served). Call it before the
    /// providers are made (`ProviderRegistry.sandboxProviders`): they take their stores from these settings.
    public mutating func useStore(_ choice: SandboxStoreChoice, reset: Bool = false) throws(SandboxStoreStartError) {
        let made = try Self.makeStorage(choice, reset: reset)
        store = choice
        storage = made.storage
        storageService = made.service
    }

    /// The storage `choice` names and what must run beside the HTTP server for it.
    static func makeStorage(_ choice: SandboxStoreChoice, reset: Bool) throws(SandboxStoreStartError)
        -> (storage: any SandboxStorage, service: (any Service)?)
    {
        switch choice {
        case .memory:
            return (MemoryStorage(), nil)
        case .postgres:
            // ─── PostgreSQL hook ─────────────────────────────────────────────────────────────────
            // The one place a database store is made: `PostgresStorage` (Sources/Sandbox/Store/
            // Postgres/) is constructed here from `url`, `poolSize` and `reset` (empty every table once
            // migrated, before serving) and returned as both the storage and the service
            // `SandboxServer.start` runs beside the HTTP server, e.g.
            //     case .postgres(let url, let poolSize):
            //         let storage = try PostgresStorage(url: url, poolSize: poolSize, reset: reset)   // its
            //         return (storage, storage)          // errors mapped to SandboxStoreStartError(store: choice, …)
            // Until it is merged, this build has no database store.
            throw SandboxStoreStartError(
                store: choice,
                reason: "the PostgreSQL store is not built into this checkout; use the memory store (leave out --store)")
        }
    }
}

/// Reading and printing a store URL: `postgres://USER[:PASSWORD]@HOST:PORT/DB`.
public enum SandboxStoreURL {
    /// The form a store URL takes, for error messages.
    public static let form = "postgres://USER@HOST:PORT/DB (or postgresql://; a password as USER:PASSWORD@, or in PGPASSWORD)"

    /// `url` with any password replaced by `***`: what banners, logs and errors may show.
    public static func redacting(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return url }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    /// Why `url` is not a store URL; nil when it is one.
    public static func problem(_ url: String) -> String? {
        let shown = redacting(url)
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            return "\"\(shown)\" is not a URL; write it as \(form)"
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            return "\"\(shown)\" has the scheme \(scheme)://, not postgres://; write it as \(form)"
        }
        guard let user = components.user, !user.isEmpty else { return "\"\(shown)\" names no USER; write it as \(form)" }
        guard let host = components.host, !host.isEmpty else { return "\"\(shown)\" names no HOST; write it as \(form)" }
        guard let port = components.port else { return "\"\(shown)\" names no PORT; write it as \(form)" }
        guard (1...65535).contains(port) else { return "\"\(shown)\" has the port \(port), not 1...65535" }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty, !database.contains("/") else { return "\"\(shown)\" names no DB (one path segment); write it as \(form)" }
        return nil
    }
}
