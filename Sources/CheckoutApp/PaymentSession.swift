import CheckoutModel
import Foundation
import TerminalUI
import PaymentFlow
import ProviderClients
import ProviderWire
import Sandbox

/// Everything one checkout session talks through: the embedded sandbox (unless a shared one or
/// real providers were named), the shared HTTP client with its exchange log, the checkout
/// runner with every registered provider's adapter, and the simulated customer. Shared by the
/// screen and `checkout run`.
struct PaymentSession: Sendable {
    /// The bundled catalog: what is sold, and the merchant the sandbox shows the customer.
    let catalog: Catalog
    let registry: ProviderRegistry
    let sandbox: RunningSandbox?
    let http: ProviderHTTPClient
    let checkout: CheckoutRunner
    /// The sandbox's control API (simulated customer, faults); nil when no sandbox is used.
    let customer: SandboxControlClient?
    /// Owns the faults this session injected into a shared sandbox.
    let runID: String
    let injectedFaults: Bool
    /// What providers hear outside their calls (Adyen's webhooks), for the log and `checkout run`.
    let notices: ProviderNotices
    /// Every provider's adapter by provider id, closed when the session stops.
    let adapters: [String: any PaymentProviderAdapter]
    /// What providers ask the person at the terminal (Square's reader); the screen shows it,
    /// `checkout run` answers it as the scenario's customer.
    let desk: CustomerDesk
    /// The profile it runs with (`--profile`), named in the title bar.
    var profileName: String?

    /// Starts the embedded sandbox unless a provider or shared sandbox was named, and injects
    /// the faults asked for (owned by this session, removed by `stop()`).
    /// `keptExchanges` bounds the HTTP log kept in memory (nil: all, as transcripts need).
    static func start(_ options: SessionOptions, keptExchanges: Int? = nil, catalog loaded: Catalog? = nil) async throws -> PaymentSession {
        StartupTrace.mark("session")
        let catalog = try loaded ?? Catalog.bundled(currency: options.currency)
        var sandbox: RunningSandbox?
        if options.usesEmbeddedSandbox {
            var settings = SandboxSettings(
                triggerRotation: options.triggerRotationSeconds, requestLifetime: options.requestLifetimeSeconds,
                merchantName: catalog.merchantName)
            settings.limits = options.embeddedSandboxLimits
            let configured = options.registry.sandboxSettings(settings, options: options.providerOptions)
            sandbox = try await SandboxServer(settings: configured, providers: await options.registry.sandboxProviders(configured)).start()
            StartupTrace.mark("sandbox-listening")
        }
        let sandboxURL = options.sandboxURL ?? sandbox?.baseURL
        let runID = "run-" + UUID().uuidString.prefix(8).lowercased()
        // A shared sandbox's control token goes to it alone, and is a secret wherever it might show.
        let controlToken = options.sandboxURL == nil ? nil : options.sandboxControlToken
        let http = ProviderHTTPClient(
            log: ExchangeLog(limit: keptExchanges),
            redactor: Redactor(secrets: options.registry.descriptors.flatMap { $0.secrets(options.providerOptions, sandboxURL) } + (controlToken.map { [$0] } ?? [])),
            retryPolicy: RetryPolicy(maxAttempts: RetryPolicy.standard.maxAttempts, baseDelay: options.retryBaseDelay),
            sandboxRun: sandboxURL.map { (baseURL: $0, runID: runID) }, sandboxControlToken: controlToken)
        let notices = ProviderNotices()
        let desk = CustomerDesk()
        let connection = ProviderConnection(
            http: http, sandboxURL: sandboxURL, options: options.providerOptions, notices: notices, desk: desk, catalog: catalog)
        let adapters = Dictionary(uniqueKeysWithValues: options.registry.descriptors.map { ($0.id, $0.makeAdapter(connection)) })
        let customer = sandboxURL.map { SandboxControlClient(baseURL: $0, http: http, sendsToken: controlToken != nil) }
        do {
            if let sandbox {
                for fault in options.faults { try await sandbox.faults.add(fault, owner: runID) }
            } else if let customer, !options.faults.isEmpty {
                try await customer.inject(options.faults, owner: runID)
            }
        } catch {
            // Not even the faults a shared sandbox may have kept before the answer was lost (or
            // the run cancelled).
            await leaveNothingBehind(adapters: adapters, runID: runID, customer: customer, sandbox: sandbox, injectedFaults: true)
            throw error
        }
        StartupTrace.mark("session-ready")
        return PaymentSession(
            catalog: catalog, registry: options.registry, sandbox: sandbox, http: http,
            checkout: CheckoutRunner(adapters: { adapters[$0] }, desk: desk), customer: customer, runID: runID,
            injectedFaults: !options.faults.isEmpty, notices: notices, adapters: adapters, desk: desk, profileName: options.profileName)
    }

    /// Where requests go, for the title bar.
    var endpointLabel: String {
        (profileName.map { "profile \($0) · " } ?? "") + endpoints
    }

    private var endpoints: String {
        if let sandbox { return "embedded sandbox \(sandbox.host):\(sandbox.port)" }
        if let customer { return "shared sandbox \(customer.baseURL)" }
        return "live providers"
    }

    /// The simulated customer can act: every provider goes to a sandbox.
    var customerSimulated: Bool { customer != nil }

    /// Removes what is left of this session's faults from a shared sandbox (they belong to this
    /// checkout, not to whoever uses the sandbox next), and stops the embedded one.
    func stop() async {
        await Self.leaveNothingBehind(adapters: adapters, runID: runID, customer: customer, sandbox: sandbox, injectedFaults: injectedFaults)
    }

    /// A session ends (or fails to start) leaving nothing behind: its providers' connections
    /// close, its faults in a shared sandbox go, its embedded sandbox stops. In a task of its own:
    /// a cancelled run's HTTP calls would fail at once, leaving its faults for whoever uses the
    /// sandbox next.
    private static func leaveNothingBehind(
        adapters: [String: any PaymentProviderAdapter], runID: String, customer: SandboxControlClient?, sandbox: RunningSandbox?,
        injectedFaults: Bool
    ) async {
        await Task {
            for adapter in adapters.values { await adapter.close() }
            if sandbox == nil, injectedFaults, let customer { _ = try? await customer.removeFaults(owner: runID) }
            await sandbox?.stop()
        }.value
    }
}

extension SandboxControlClient {
    /// The simulated customer approves or declines, then `checkout` looks at once rather than
    /// at its next poll (real providers keep PayKit's cadence: only the sandbox comes here).
    func act(_ decision: CustomerDecision, on id: String, nudging checkout: CheckoutRunner) async throws(SandboxControlFailure) {
        try await act(decision, on: id)
        await checkout.customerActed()
    }

    /// Adds a run's faults, all or none. A sandbox that could not be reached half-way (an
    /// instance behind a balancer restarting; an answer lost with its connection, so a fault may
    /// have been taken) is asked to drop what this run has and take them all again, up to
    /// `tries` times, a moment apart: the faults are the run's own, so nothing is added twice.
    func inject(_ faults: [FaultRule], owner: String, tries: Int = 4) async throws {
        var tried = 0
        while true {
            tried += 1
            do {
                // Again from none: whatever an earlier try left is dropped first.
                if tried > 1 { _ = try await removeFaults(owner: owner) }
                for fault in faults { try await inject(fault: fault.description, owner: owner) }
                return
            } catch {
                if error.isControlTokenRefusal { throw SandboxControlTokenRefused(description: error.description) }
                guard tried < tries, Self.isPassing(error) else { throw SandboxUnreachable(url: baseURL, reason: error.description) }
                try await Task.sleep(for: .milliseconds(250 * tried))
            }
        }
    }

    /// A failure that another try may not meet: no answer, or the sandbox's store away for a moment.
    private static func isPassing(_ failure: SandboxControlFailure) -> Bool {
        switch failure {
        case .transport: true
        case .api(let status, _): status == 503
        case .emptyBody, .undecodable: false
        }
    }
}

/// The shared sandbox wants a control token the checkout did not send (or not that one).
struct SandboxControlTokenRefused: Error, CustomStringConvertible {
    let description: String
}

/// The shared sandbox could not take the faults asked for.
struct SandboxUnreachable: Error, CustomStringConvertible {
    let url: String
    let reason: String
    var description: String { "the sandbox at \(url) did not take the fault (\(reason)); is `checkout sandbox` running there?" }
}
