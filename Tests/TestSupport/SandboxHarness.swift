import CheckoutApp
import Foundation
import ProviderClients
import ProviderWire
import Sandbox

/// A sandbox on 127.0.0.1 port 0 with a manual clock, and clients pointed at it.
public struct SandboxHarness: Sendable {
    public static let clientID = "CAS-CI_HARNESS_SECRET_ID"
    public static let brandID = "BRAND_harness"

    public let sandbox: RunningSandbox
    public let clock: ManualClock
    public let log: ExchangeLog

    public var baseURL: String { sandbox.baseURL }

    /// Runs `body` with a fresh sandbox, stopping it afterwards whatever happens.
    public static func with<T: Sendable>(
        triggerRotation: TimeInterval = 30, requestLifetime: TimeInterval = 3600,
        faultDelaySeconds: Double = 0.4, registry: ProviderRegistry = .builtIn, limits: SandboxLimits = SandboxLimits(),
        _ body: (SandboxHarness) async throws -> T
    ) async throws -> T {
        let clock = ManualClock()
        var settings = SandboxSettings(now: clock.clock, triggerRotation: triggerRotation, requestLifetime: requestLifetime)
        settings.limits = limits
        settings.faultTimeoutSeconds = faultDelaySeconds
        settings.faultSlowSeconds = faultDelaySeconds
        return try await SandboxServer.withRunning(settings, registry: registry) { sandbox in
            try await body(SandboxHarness(sandbox: sandbox, clock: clock, log: ExchangeLog()))
        }
    }

    /// `run`: the checkout run the requests name, whose faults they get (besides the sandbox's).
    /// The 30 s timeout only matters when a test would fail: CI's starved machine once stalled
    /// every in-flight request of the test process for over 5 s at one moment.
    public func http(
        retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10)), timeout: Duration = .seconds(30),
        run: String? = nil
    ) -> ProviderHTTPClient {
        ProviderHTTPClient(
            log: log, redactor: Redactor(secrets: [Self.clientID]), timeout: timeout, retryPolicy: retryPolicy,
            sandboxRun: run.map { (baseURL: baseURL, runID: $0) })
    }

    public func client(clientID: String = SandboxHarness.clientID, timeout: Duration = .seconds(30), run: String? = nil) -> CustomerRequestClient {
        CustomerRequestClient(
            configuration: CashAppConfiguration(baseURL: baseURL, clientID: clientID, brandID: Self.brandID),
            http: http(timeout: timeout, run: run))
    }

    /// Injects a fault, as `--fault SPEC` does; `owner` is who it belongs to.
    public func inject(_ spec: String, owner: String = FaultPlan.sandboxOwner) async throws {
        try await sandbox.faults.add(try FaultRule(spec: spec), owner: owner)
    }

    public var customer: SandboxControlClient { SandboxControlClient(baseURL: baseURL, http: http()) }

    public static func params(amount: Int = 4505, scopeID: String = brandID, redirectURL: String = "terminalcheckout://return") -> CreateCustomerRequestParams {
        CreateCustomerRequestParams(
            actions: [.oneTimePayment(scopeID: scopeID, amount: amount, currency: "USD")],
            channel: .ONLINE, redirectURL: redirectURL, referenceID: "order-1", metadata: ["cartId": "c-1"])
    }

    /// Calls an Afterpay endpoint with the sandbox merchant's Basic credentials (or none).
    public func afterpay(_ method: String, _ path: String, json: String?, credentials: String? = "100101:sandbox-secret-key") async throws -> ProviderResponse {
        let authorization = credentials.map { "Basic " + Data($0.utf8).base64EncodedString() }
        return try await raw(method: method, path: path, body: json, authorization: authorization)
    }

    /// Sends raw bytes to the sandbox, for input the typed client would never produce.
    public func raw(method: String, path: String, body: String?, authorization: String? = "Client \(SandboxHarness.clientID)") async throws -> ProviderResponse {
        var headers: [(name: String, value: String)] = [(name: "Content-Type", value: "application/json")]
        if let authorization { headers.append((name: "Authorization", value: authorization)) }
        return try await http().send(ProviderRequest(method: method, url: baseURL + path, headers: headers, body: body.map { Data($0.utf8) }), provider: "test")
    }
}

/// The failure `operation` ends with, or nil when it succeeds.
public func failure<T, Failure: Error>(of operation: () async throws(Failure) -> T) async -> Failure? {
    do {
        _ = try await operation()
        return nil
    } catch {
        return error
    }
}
