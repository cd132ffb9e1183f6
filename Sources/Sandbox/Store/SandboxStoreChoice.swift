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
    /// A database is connected to once here (its schema applied under an advisory lock, a newer
    /// one refused), so an unreachable or wrong database is an error before anything is served.
    public mutating func useStore(_ choice: SandboxStoreChoice, reset: Bool = false) async throws(SandboxStoreStartError) {
        let made = try await Self.makeStorage(choice, reset: reset)
        store = choice
        storage = made.storage
        storageService = made.service
    }

    /// The storage `choice` names and what must run beside the HTTP server for it.
    static func makeStorage(_ choice: SandboxStoreChoice, reset: Bool) async throws(SandboxStoreStartError)
        -> (storage: any SandboxStorage, service: (any Service)?)
    {
        switch choice {
        case .memory:
            return (MemoryStorage(), nil)
        case .postgres(let url, let poolSize):
            do {
                let storage = try PostgresStorage(url: url, poolSize: poolSize)
                try await storage.prepare()
                if reset { try await storage.reset() }
                // The pool runs as a service beside the HTTP server (SandboxServer.start).
                return (storage, storage)
            } catch {
                throw SandboxStoreStartError(store: choice, reason: error.startReason)
            }
        }
    }
}

extension PostgresStoreError {
    /// Why a store could not start, without repeating the URL `SandboxStoreStartError` names.
    var startReason: String {
        switch self {
        case .unreachable(_, let reason): reason
        case .schemaTooNew(_, let database, let known):
            "its sandbox schema is version \(database), newer than this checkout knows (version \(known)): upgrade checkout, or point --store at another database"
        default: description
        }
    }
}

/// Reading and printing a store URL: `postgres://USER[:PASSWORD]@HOST:PORT/DB`.
public enum SandboxStoreURL {
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

    /// Why `url` is not a store URL, naming the part that is wrong; nil when it is one.
    public static func problem(_ url: String) -> String? {
        do {
            _ = try PostgresLocation(parsing: url)
            return nil
        } catch {
            return error.description
        }
    }
}
