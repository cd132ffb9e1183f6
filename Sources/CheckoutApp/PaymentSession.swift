import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import Sandbox

/// Everything one checkout talks through: the embedded sandbox (when no provider URL was
/// given), the shared HTTP client with its exchange log, the payment flow, and the simulated
/// customer. Shared by the screen and `checkout run`.
struct PaymentSession: Sendable {
    /// The bundled catalog: what is sold, and the merchant the sandbox shows the customer.
    let catalog: Catalog
    let sandbox: RunningSandbox?
    let configuration: CashAppConfiguration
    let http: ProviderHTTPClient
    let pay: CashAppPay
    /// The sandbox's control API (simulated customer, faults); nil when a real provider is used.
    let customer: SandboxControlClient?
    let afterpay: AfterpayClient

    /// Starts the embedded sandbox unless a provider or shared sandbox was named, and injects
    /// the faults asked for.
    /// `keptExchanges` bounds the HTTP log kept in memory (nil: all, as transcripts need).
    static func start(_ options: SessionOptions, keptExchanges: Int? = nil) async throws -> PaymentSession {
        let catalog = try Catalog.bundled()
        var sandbox: RunningSandbox?
        if options.usesEmbeddedSandbox {
            let settings = SandboxSettings(
                triggerRotation: options.triggerRotationSeconds, requestLifetime: options.requestLifetimeSeconds,
                merchantName: catalog.merchantName)
            sandbox = try await SandboxServer(settings: settings).start()
        }
        let sandboxURL = options.sandboxURL ?? sandbox?.baseURL
        let configuration = options.endpoint.configuration(sandboxURL: sandboxURL)
        let afterpayConfiguration = options.afterpay.configuration(sandboxURL: sandboxURL)
        let http = ProviderHTTPClient(
            log: ExchangeLog(limit: keptExchanges),
            redactor: Redactor(secrets: [configuration.clientID, afterpayConfiguration.secretKey]),
            retryPolicy: RetryPolicy(maxAttempts: RetryPolicy.standard.maxAttempts, baseDelay: options.retryBaseDelay))
        let customer = sandboxURL.map { SandboxControlClient(baseURL: $0, http: http) }
        for fault in options.faults {
            if let sandbox { sandbox.faults.add(fault) } else { try await customer?.inject(fault) }
        }
        return PaymentSession(
            catalog: catalog, sandbox: sandbox, configuration: configuration, http: http,
            pay: CashAppPay(client: CustomerRequestClient(configuration: configuration, http: http)),
            customer: customer, afterpay: AfterpayClient(configuration: afterpayConfiguration, http: http))
    }

    /// Where requests go, for the title bar.
    var endpointLabel: String {
        if let sandbox { return "embedded sandbox \(sandbox.host):\(sandbox.port)" }
        return customer.map { "shared sandbox \($0.baseURL)" } ?? configuration.baseURL
    }

    func stop() async {
        await sandbox?.stop()
    }
}

extension SandboxControlClient {
    func inject(_ fault: FaultRule) async throws {
        do { try await inject(fault: fault.description) } catch {
            throw SandboxUnreachable(url: baseURL, reason: error.description)
        }
    }
}

/// The shared sandbox could not take the faults asked for.
struct SandboxUnreachable: Error, CustomStringConvertible {
    let url: String
    let reason: String
    var description: String { "the sandbox at \(url) did not take the fault (\(reason)); is `checkout sandbox` running there?" }
}
