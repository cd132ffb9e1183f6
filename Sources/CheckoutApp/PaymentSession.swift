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
    /// The simulated customer; nil when a real provider is used.
    let customer: SandboxControlClient?

    static func start(endpoint: CashAppEndpointOptions) async throws -> PaymentSession {
        let catalog = try Catalog.bundled()
        var sandbox: RunningSandbox?
        if endpoint.usesEmbeddedSandbox {
            sandbox = try await SandboxServer(settings: SandboxSettings(merchantName: catalog.merchantName)).start()
        }
        let configuration = endpoint.configuration(sandboxURL: sandbox?.baseURL)
        let http = ProviderHTTPClient(redactor: Redactor(secrets: [configuration.clientID]))
        return PaymentSession(
            catalog: catalog, sandbox: sandbox, configuration: configuration, http: http,
            pay: CashAppPay(client: CustomerRequestClient(configuration: configuration, http: http)),
            customer: sandbox.map { SandboxControlClient(baseURL: $0.baseURL, http: http) })
    }

    /// Where requests go, for the title bar.
    var endpointLabel: String {
        sandbox.map { "embedded sandbox \($0.host):\($0.port)" } ?? configuration.baseURL
    }

    func stop() async {
        await sandbox?.stop()
    }
}
