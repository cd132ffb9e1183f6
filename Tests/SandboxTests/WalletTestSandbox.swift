import CheckoutApp
import Foundation
import ProviderClients
import ProviderWire
import Sandbox

/// A sandbox serving the wallet's token route beside Adyen and Square on 127.0.0.1 port 0, with a
/// manual clock (token expiry), and the typed clients pointed at it.
struct WalletTestSandbox: Sendable {
    static let adyenKey = "AQEwallet-test-key"
    static let merchantAccount = "TestMerchantECOM"
    static let squareToken = "EAAAwallet-test-token"
    static let merchantIdentifier = "merchant.com.terminalcheckout.test"

    let sandbox: RunningSandbox
    let clock: ManualClock

    var baseURL: String { sandbox.baseURL }

    /// The wallet side is added here whether or not the registry serves it yet (and only once).
    static func with<T: Sendable>(_ body: (WalletTestSandbox) async throws -> T) async throws -> T {
        let clock = ManualClock()
        let settings = SandboxSettings(now: clock.clock)
        let providers = await ProviderRegistry.builtIn.sandboxProviders(settings).filter { !($0 is WalletSandbox) } + [WalletSandbox(id: "wallet", settings: settings)]
        let sandbox = try await SandboxServer(settings: settings, providers: providers).start(host: "127.0.0.1", port: 0)
        do {
            let result = try await body(WalletTestSandbox(sandbox: sandbox, clock: clock))
            await sandbox.stop()
            return result
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// One attempt per call: what the sandbox answered first is what the test sees.
    var http: ProviderHTTPClient { ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never) }

    var tokens: WalletTokenClient { WalletTokenClient(baseURL: baseURL, http: http) }

    var adyen: AdyenClient {
        AdyenClient(
            configuration: AdyenConfiguration(
                baseURL: baseURL + AdyenConfiguration.apiVersionPath, apiKey: Self.adyenKey, merchantAccount: Self.merchantAccount,
                shopperReference: "shopper-1"),
            http: http)
    }

    var square: SquareClient { SquareClient(configuration: SquareConfiguration(baseURL: baseURL, accessToken: Self.squareToken, locationID: nil), http: http) }

    static func request(network: String = "visa", last4: String = "1234", amount: Int = 4505, currency: String = "USD", transactionID: String? = nil)
        -> WalletTokenRequest
    {
        WalletTokenRequest(
            merchantIdentifier: merchantIdentifier, network: network, last4: last4, amount: amount, currency: currency, transactionIdentifier: transactionID)
    }

    func token(network: String = "visa", last4: String = "1234", amount: Int = 4505, currency: String = "USD") async throws -> WalletTokenResponse {
        try await tokens.token(Self.request(network: network, last4: last4, amount: amount, currency: currency))
    }

    /// Adyen's `/payments` with an Apple Pay token.
    func payAdyen(_ applePayToken: String, value: Int = 4505, currency: String = "USD", key: String = UUID().uuidString, reference: String = "order-1")
        async throws(AdyenFailure) -> AdyenPaymentResponse
    {
        try await adyen.payWithApplePay(
            AdyenApplePayPaymentRequest(
                amount: AdyenAmount(currency: currency, value: value), merchantAccount: Self.merchantAccount,
                paymentMethod: AdyenApplePayDetails(applePayToken: applePayToken), reference: reference, returnUrl: "https://shop.example/return"),
            idempotencyKey: key)
    }

    /// Square's CreatePayment with a wallet nonce.
    func paySquare(_ nonce: String, amount: Int = 4505, currency: String = "USD", key: String = UUID().uuidString) async throws(SquareFailure) -> SquarePayment {
        try await square.createPayment(SquareCreatePaymentRequest(
            sourceID: nonce, idempotencyKey: key, amountMoney: SquareMoney(amount: amount, currency: currency), referenceID: "order-1"))
    }

    /// `POST /wallet/tokens` with raw JSON, for bodies the typed client would never send.
    func issueRaw(_ json: String) async throws -> (status: Int, body: [String: Any]) {
        let response = try await http.send(
            ProviderRequest(method: "POST", url: baseURL + "/wallet/tokens", headers: [(name: "Content-Type", value: "application/json")], body: Data(json.utf8)),
            provider: "test")
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:])
    }

    /// The ledger's `charges`: every time money moved.
    func charges() async throws -> [[String: Any]] {
        let response = try await http.send(ProviderRequest(method: "GET", url: baseURL + "/sandbox/ledger"), provider: "test")
        let ledger = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return ledger?["charges"] as? [[String: Any]] ?? []
    }
}
