import Foundation
import Testing

/// The PostgreSQL the tests use: `CHECKOUT_TEST_POSTGRES_URL` (`make test` starts a throw-away
/// cluster and sets it: `.ci/postgres-cluster.sh run swift test`). Without it the tests that need
/// it skip, unless CI is set: in CI a missing database is a failure.
public enum TestPostgres {
    public static let url: String? = ProcessInfo.processInfo.environment["CHECKOUT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    public static let isCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false
    /// Whether the PostgreSQL tests run (and, in CI, fail without a database).
    public static let isEnabled = url != nil || isCI
    public static let skipReason: Comment =
        "CHECKOUT_TEST_POSTGRES_URL is not set: the PostgreSQL tests need a database (make test starts one; or .ci/postgres-cluster.sh run swift test)"

    public struct Missing: Error, CustomStringConvertible {
        public init() {}
        public var description: String { "CHECKOUT_TEST_POSTGRES_URL is not set, and CI needs a PostgreSQL (make test starts one)" }
    }

    /// A new, empty database on the test cluster (made with psql), as a store URL: each test gets
    /// its own, so instances of one test share state and other tests' never leak in.
    public static func freshDatabase() async throws -> String {
        guard let url, var components = URLComponents(string: url) else { throw Missing() }
        let name = "sandbox_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        let psql = try ChildProcess(["psql", url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
        let status = await psql.exit(timeout: 30)
        guard status == 0 else { throw CreateFailed(status: status, output: psql.stderr) }
        components.path = "/" + name
        guard let made = components.string else { throw Missing() }
        return made
    }

    /// The one value `sql` selects in the database at `url`, as psql prints it.
    public static func value(_ sql: String, in url: String) async throws -> String {
        let psql = try ChildProcess(["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
        let status = await psql.exit(timeout: 30)
        guard status == 0 else { throw CreateFailed(status: status, output: psql.stderr) }
        return psql.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public struct CreateFailed: Error, CustomStringConvertible {
        public let status: Int32
        public let output: String
        public var description: String { "psql could not create a test database (exit \(status)): \(output)" }
    }
}
