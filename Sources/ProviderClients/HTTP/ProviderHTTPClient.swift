import AsyncHTTPClient
import ProviderWire
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A request to a provider API.
public struct ProviderRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A provider's answer: status, headers and the whole body.
public struct ProviderResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: Data

    public init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// The one HTTP client every provider uses: a timeout per attempt, retries with back-off,
/// and a redacted record of every attempt in `log`.
public final class ProviderHTTPClient: Sendable {
    public static let maximumBodyBytes = 4 << 20
    public static let userAgent = "TerminalCheckout/0.1 (swift; +terminal)"

    /// One connection pool for the process. Redirects are not followed and a refused
    /// connection fails at once, so every hop and every retry is its own recorded exchange.
    public static let sharedTransport: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public let log: ExchangeLog
    public let redactor: Redactor
    public let timeout: Duration
    public let retryPolicy: RetryPolicy
    /// Requests to this sandbox carry the run's id (`SandboxRunHeader`); nil for real providers.
    public let sandboxRun: (baseURL: String, runID: String)?
    /// Sent as `Authorization: Bearer …` on requests to the `/sandbox/` routes of `sandboxRun`'s
    /// sandbox (a shared one started with a control token); never on a provider's API paths, whose
    /// own credentials the sandbox checks. Add it to `redactor`'s secrets as well.
    private let sandboxControlToken: String?
    private let http: HTTPClient
    private let sleep: Sleeper

    public init(
        log: ExchangeLog = ExchangeLog(),
        redactor: Redactor = Redactor(),
        timeout: Duration = .seconds(5),
        retryPolicy: RetryPolicy = .standard,
        sandboxRun: (baseURL: String, runID: String)? = nil,
        sandboxControlToken: String? = nil,
        sleep: @escaping Sleeper = realSleeper,
        http: HTTPClient = ProviderHTTPClient.sharedTransport
    ) {
        self.log = log
        self.redactor = redactor
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.sandboxRun = sandboxRun
        self.sandboxControlToken = sandboxControlToken
        self.sleep = sleep
        self.http = http
    }

    /// Runs `operation` until it succeeds, fails with an error `shouldRetry` rejects, or the
    /// policy's attempts are used up. `operation` gets the attempt number, from 1.
    public func withRetries<T, Failure: Error>(
        policy: RetryPolicy? = nil,
        shouldRetry: (Failure) -> Bool,
        _ operation: (Int) async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let policy = policy ?? retryPolicy
        var attempt = 1
        while true {
            do {
                return try await operation(attempt)
            } catch {
                guard attempt < policy.maxAttempts, shouldRetry(error), !Task.isCancelled else { throw error }
                try? await sleep(policy.delay(beforeRetry: attempt))
                attempt += 1
            }
        }
    }

    /// Sends one attempt and records it, whatever happens.
    public func send(_ request: ProviderRequest, provider: String, attempt: Int = 1) async throws(TransportFailure) -> ProviderResponse {
        let startedAt = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let result = await execute(request)
        let elapsed = clock.now - start
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        log.record { id in
            HTTPExchange(
                id: id, provider: provider, attempt: attempt, method: request.method,
                url: redactor.text(request.url),
                requestHeaders: requestHeaders(for: request).map { redactor.header(name: $0.name, value: $0.value) },
                requestBody: redactor.body(request.body),
                status: result.response?.status,
                responseHeaders: (result.response?.headers ?? []).map { redactor.header(name: $0.name, value: $0.value) },
                responseBody: redactor.body(result.response?.body),
                startedAt: startedAt, durationMilliseconds: milliseconds,
                failure: result.failure.map { redactor.text($0.description) })
        }
        if let response = result.response { return response }
        throw result.failure ?? .other("no response")
    }

    private func requestHeaders(for request: ProviderRequest) -> [(name: String, value: String)] {
        var headers = request.headers
        if !headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            headers.append((name: "User-Agent", value: Self.userAgent))
        }
        if let sandboxRun, request.url.hasPrefix(sandboxRun.baseURL) {
            headers.append((name: SandboxRunHeader.name, value: sandboxRun.runID))
            if let sandboxControlToken, request.url.hasPrefix(sandboxRun.baseURL.withoutTrailingSlashes + "/sandbox/"),
                !headers.contains(where: { $0.name.lowercased() == "authorization" })
            {
                headers.append((name: "Authorization", value: "Bearer " + sandboxControlToken))
            }
        }
        return headers
    }

    private func execute(_ request: ProviderRequest) async -> (response: ProviderResponse?, failure: TransportFailure?) {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in requestHeaders(for: request) { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000
            + timeout.components.attoseconds / 1_000_000_000)
        do {
            let response = try await http.execute(outgoing, deadline: deadline)
            let body = try await response.body.collect(upTo: Self.maximumBodyBytes)
            return (ProviderResponse(
                status: Int(response.status.code),
                headers: response.headers.map { (name: $0.name, value: $0.value) },
                // Copied as the bytes lie (NIO's): `Data(sequence)` first casts the sequence to a
                // protocol, whose first lookup per type scans every conformance in the binary.
                body: Data(buffer: body)), nil)
        } catch {
            return (nil, Self.classify(error, timeout: timeout, url: request.url))
        }
    }

    static func classify(_ error: any Error, timeout: Duration, url: String) -> TransportFailure {
        let host = URLComponents(string: url).map { "\($0.host ?? "?")\($0.port.map { ":\($0)" } ?? "")" } ?? url
        if error is CancellationError { return .cancelled }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return .timedOut(after: timeout)
            case .remoteConnectionClosed:
                return .connectionLost("remote closed the connection")
            case .cancelled:
                return .cancelled
            default:
                return .other(String(describing: clientError))
            }
        }
        if let ioError = error as? IOError {
            return .connectionFailed("\(host): \(String(cString: strerror(ioError.errnoCode)).lowercased())")
        }
        if error is ChannelError {
            return .connectionFailed("\(host): \(error)")
        }
        let typeName = String(reflecting: type(of: error))
        if typeName.hasPrefix("NIOSSL.") {
            // Never the library's own text: it names files inside the build folder.
            let failure = String(describing: error).prefix { $0.isLetter }.reduce(into: "") { words, letter in
                words += letter.isUppercase ? " " + letter.lowercased() : String(letter)
            }
            return .connectionFailed("\(host): TLS \(failure.isEmpty ? "failed" : failure); if this is the sandbox, use http://, not https://")
        }
        if typeName.contains("SocketAddressError") || String(describing: error).contains("UnknownHost") {
            return .connectionFailed("\(host): unknown host; check the host name")
        }
        return .other(String(describing: error))
    }
}
