import Foundation
import ProviderClients

/// Runs the real `checkout` executable, as a user would from a shell.
public enum CheckoutBinary {
    public struct Outcome: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }

        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// The state names printed as `state: NAME …` lines, in order.
        public var states: [String] {
            lines.filter { $0.hasPrefix("state: ") }.map { String($0.dropFirst(7).prefix { $0 != " " }) }
        }
    }

    /// The built binary: $CHECKOUT_BINARY, or `checkout` beside the test bundle.
    public static var url: URL {
        if let override = ProcessInfo.processInfo.environment["CHECKOUT_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("checkout")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/checkout")
    }

    /// Runs `checkout ARGUMENTS` to completion; stops it after `timeout` seconds.
    public static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 60) async throws -> Outcome {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CASHAPP_CLIENT_ID")
        env.removeValue(forKey: "CASHAPP_BRAND_ID")
        for key in ["ADYEN_API_KEY", "ADYEN_MERCHANT_ACCOUNT", "ADYEN_HMAC_KEY", "SQUARE_ACCESS_TOKEN", "SQUARE_LOCATION_ID"] { env.removeValue(forKey: key) }
        for (key, value) in environment { env[key] = value }
        let child = try ChildProcess([url.path] + arguments, environment: env)
        let status = await child.exit(timeout: timeout)
        return Outcome(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    /// Starts `checkout ARGUMENTS` and leaves it running, with its first line of output.
    /// The timeout leaves room for a loaded CI machine: the wait ends as soon as the line comes.
    public static func start(_ arguments: [String], timeout: Double = 60) async throws -> (process: ChildProcess, firstLine: String) {
        let child = try ChildProcess([url.path] + arguments)
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if let line = child.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first {
                return (child, String(line))
            }
            guard child.status == nil else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildProcessError(arguments: arguments, errno: ETIMEDOUT)
    }

    /// GETs a URL, e.g. a shared sandbox's ledger.
    public static func fetch(_ url: String) async throws -> Data {
        try await send("GET", url).body
    }

    /// Sends one request with a JSON body (or none), no retries.
    public static func send(
        _ method: String, _ url: String, json: String? = nil, headers extra: [(name: String, value: String)] = []
    ) async throws -> (status: Int, body: Data) {
        let headers = (json == nil ? [] : [(name: "Content-Type", value: "application/json")]) + extra
        let response = try await ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never).send(
            ProviderRequest(method: method, url: url, headers: headers, body: json.map { Data($0.utf8) }), provider: "test")
        return (response.status, response.body)
    }
}
