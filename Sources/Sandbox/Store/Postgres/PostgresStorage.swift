import Foundation
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Every store of a sandbox in one PostgreSQL database, through one connection pool
/// (`PostgresClient`). Several instances given the same URL share every store by name.
///
/// Its life: `PostgresStorage(url:poolSize:)` reads the URL (no I/O); `prepare()` connects once,
/// checks the database and migrates it (a clear error naming the redacted URL when it cannot);
/// `run()` (a service-lifecycle `Service`, beside the HTTP server) keeps the pool going until
/// cancelled or shut down gracefully, and stores answer only while it runs; `reset()` empties every
/// store.
public final class PostgresStorage: SandboxStorage, Service {
    let location: PostgresLocation
    let client: PostgresClient
    let logger: Logger
    /// How many times one unit of work is tried when the database reports a deadlock, a
    /// serialization failure or a lost race for a unique key.
    let attempts: Int
    /// Testing only: units of work made to fail (`injectFaults`).
    let faults = Mutex<(@Sendable (_ operation: String, _ store: String) -> Bool)?>(nil)

    /// The database's URL without its password: for banners, logs and messages.
    public var redactedURL: String { location.redacted }

    init(location: PostgresLocation, poolSize: Int = SandboxStoreChoice.defaultPoolSize, attempts: Int = 8, logger: Logger? = nil) {
        self.location = location
        self.attempts = max(1, attempts)
        self.logger = logger ?? Logger(label: "checkout.sandbox.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: Self.clientTLS(location.tls))
        // The pool's connections are kept open, with no idle timeout and no keep-alive: each
        // would start a timer task every time a connection goes back to the pool (twice per
        // request), and under load those tasks' memory was never given back (RSS grew ~2 MB/s at
        // 1,500 req/s). A connection the server dropped fails its next statement (503, retried
        // by the client) and the pool opens another.
        configuration.options.maximumConnections = max(1, poolSize)
        configuration.options.minimumConnections = max(1, poolSize)
        configuration.options.keepAliveBehavior = nil
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.additionalStartupParameters = location.startupParameters
        self.client = PostgresClient(configuration: configuration, backgroundLogger: self.logger)
    }

    /// Reads `url` (see `PostgresLocation`); throws `PostgresStoreError.invalidURL` naming the field.
    public convenience init(url: String, poolSize: Int = SandboxStoreChoice.defaultPoolSize) throws(PostgresStoreError) {
        self.init(location: try PostgresLocation(parsing: url), poolSize: poolSize)
    }

    func store<Record: StoredRecord & Codable>(_ name: String, of type: Record.Type, policy: StorePolicy<Record>)
        -> any SandboxRecordStore<Record>
    {
        PostgresEscapingStore(rows: PostgresRecordStore(name: name, storage: self, policy: policy.rows()))
    }

    // MARK: - Life

    /// Connects once on its own (not through the pool, so a closed port or a wrong password fails
    /// at once rather than after the pool's retries), migrates under the advisory lock and
    /// refuses a newer schema. Returns the migrations it applied.
    @discardableResult
    public func prepare() async throws(PostgresStoreError) -> [Int] {
        try await withDirectConnection { connection in
            try await PostgresSchema.migrate(connection, location: location, logger: logger)
        }
    }

    /// Empties every store (`checkout sandbox --reset`), after `prepare()`.
    public func reset() async throws(PostgresStoreError) {
        try await withDirectConnection { connection in try await PostgresSchema.reset(connection, logger: logger) }
    }

    /// The pool's life: stores answer only while this runs. Ends when its task is cancelled or on
    /// graceful shutdown.
    public func run() async throws {
        await client.run()
    }

    private func withDirectConnection<Value: Sendable>(
        _ body: (PostgresConnection) async throws -> Value
    ) async throws(PostgresStoreError) -> Value {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: location.connectionConfiguration(), id: 0, logger: logger)
        } catch {
            throw .unreachable(url: location.redacted, reason: PostgresStoreError.reason(error, at: location))
        }
        do {
            let value = try await body(connection)
            try? await connection.close()
            return value
        } catch let error as PostgresStoreError {
            try? await connection.close()
            throw error
        } catch {
            try? await connection.close()
            throw .unreachable(url: location.redacted, reason: PostgresStoreError.reason(error, at: location))
        }
    }

    private static func clientTLS(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }
}

extension PostgresLocation {
    /// One connection's settings (outside the pool: `prepare`, `reset`, tests).
    /// The pool's sessions (those serving requests): a statement, a wait for a row another
    /// instance holds, or a transaction left open by a stopped instance ends within a minute, so a
    /// request is answered 503 rather than hanging on a database in trouble. Generous: a busy
    /// machine must not turn a slow answer into an error.
    var startupParameters: [(String, String)] {
        let bounds = [("statement_timeout", "60s"), ("lock_timeout", "30s"), ("idle_in_transaction_session_timeout", "60s")]
        return bounds + searchPath
    }

    /// The start's own connection (migrations, reset) waits for the migrations' advisory lock as
    /// long as instances starting together take to migrate: only the idle bound applies.
    var directParameters: [(String, String)] {
        [("idle_in_transaction_session_timeout", "60s")] + searchPath
    }

    private var searchPath: [(String, String)] { schema.map { [("search_path", $0)] } ?? [] }

    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let transport: PostgresConnection.Configuration.TLS =
            switch tls {
            case .disable: .disable
            case .prefer: try .prefer(.init(configuration: .makeClientConfiguration()))
            case .require: try .require(.init(configuration: .makeClientConfiguration()))
            }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password,
            database: database, tls: transport)
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.additionalStartupParameters = directParameters
        return configuration
    }
}
