@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Testing

/// Adyen's flow options, read the same by every front end (the command line and profiles through
/// the descriptor, scenarios through `options:`), and the defect: `--cashapp-url` with
/// Adyen no longer demands the Cash App client id Adyen's session setup gives.
@Suite struct AdyenFlowOptionsTests {
    private let adyen = ProviderDescriptor.adyen

    @Test func theSessionsFlowIsTheDefaultAndAdvancedIsChosen() {
        #expect(AdyenOptions.settings(ProviderOptionValues()).flow == .sessions)
        #expect(AdyenOptions.settings(ProviderOptionValues(["adyen-flow": "advanced"])).flow == .advanced)
        #expect(AdyenOptions.settings(ProviderOptionValues()).storeMode == .disabled)
        // `--store` alone in a session: stored without asking.
        let stored = AdyenOptions.settings(ProviderOptionValues(["store": "true"]))
        #expect(stored.storeMode == .enabled && stored.stores)
    }

    @Test func whatAPaymentStoresFollowsTheFlowAndMode() {
        var settings = AdyenPaymentSettings(flow: .sessions, storeMode: .askForConsent)
        #expect(!settings.stores && settings.offersStoreToggle)
        settings = settings.applying(["store": "true"])
        #expect(settings.stores, "the shopper consented with the toggle")
        #expect(!AdyenPaymentSettings(flow: .sessions, storeMode: .disabled, store: true).stores)
        #expect(AdyenPaymentSettings(flow: .sessions, storeMode: .enabled).stores)
        #expect(!AdyenPaymentSettings(flow: .sessions, storeMode: .enabled, storedPaymentMethodID: "X").stores, "a stored method is stored already")
        #expect(AdyenPaymentSettings(flow: .advanced, store: true).stores)
    }

    @Test(arguments: [
        (["adyen-flow": "classic"], "--adyen-flow must be sessions or advanced, not \"classic\""),
        (["store-payment-method-mode": "always"], "--store-payment-method-mode must be disabled, askForConsent or enabled"),
        (["adyen-flow": "advanced", "store-payment-method-mode": "enabled"], "--store-payment-method-mode is a session's"),
        (["store": "true", "store-payment-method-mode": "disabled"], "a disabled session stores nothing"),
        (["adyen-client-key": "AQE_secret"], "--adyen-client-key must look like test_"),
        (["adyen-component-url": "checkoutshopper"], "--adyen-component-url must be an http(s) URL"),
        (
            ["adyen-url": "https://checkout-test.adyen.com/v71", "adyen-api-key": "AQE_x", "adyen-merchant-account": "M"],
            "needs your client key: --adyen-client-key"
        ),
    ])
    func badValuesNameTheFieldAndTheAllowedValues(values: [String: String], message: String) {
        let problem = adyen.optionProblem(ProviderOptionValues(values)) ?? ""
        #expect(problem.contains(message), "\(problem)")
    }

    /// The defect: Adyen at its real host with Cash App's real host starts without
    /// Cash App's client id (Adyen's setup gives it); Cash App Pay directly still needs it.
    @Test func cashAppsURLDoesNotDemandAClientIDOfAdyen() {
        let values = ProviderOptionValues([
            "adyen-url": "https://checkout-test.adyen.com/v71", "adyen-api-key": "AQE_x", "adyen-merchant-account": "M",
            "adyen-client-key": "test_ABCDEFGH12345678", "cashapp-url": CashAppConfiguration.sandboxHost,
        ])
        #expect(SessionOptions(registry: .builtIn, providerOptions: values).problem == nil)
        #expect(adyen.usageProblem(values) == nil)
        #expect(ProviderDescriptor.cashApp.usageProblem(values)?.contains("--cashapp-url needs your client id") == true)
        var withClient = values
        withClient["client-id"] = "CAS-CI_X"
        withClient["brand-id"] = "BRAND_X"
        #expect(ProviderDescriptor.cashApp.usageProblem(withClient) == nil)
        // With the advanced flow no client key is needed either.
        var advanced = values
        advanced["adyen-client-key"] = nil
        advanced["adyen-flow"] = "advanced"
        #expect(SessionOptions(registry: .builtIn, providerOptions: advanced).problem == nil)
    }

    @Test func theClientKeyHostGoesWithTheCheckoutHost() {
        #expect(AdyenConfiguration.componentBaseURL(for: "https://checkout-test.adyen.com/v71") == "https://checkoutshopper-test.adyen.com")
        #expect(AdyenConfiguration.componentBaseURL(for: "http://127.0.0.1:8080/v71/") == "http://127.0.0.1:8080")
        let configuration = AdyenOptions.configuration(ProviderOptionValues(), sandboxURL: "http://127.0.0.1:9000")
        #expect(configuration.componentBaseURL == "http://127.0.0.1:9000" && configuration.clientKey == AdyenClientKey.sandbox)
        #expect(!adyen.secrets(ProviderOptionValues(), nil).contains(AdyenClientKey.sandbox), "the client key is not a secret")
        #expect(adyen.secrets(ProviderOptionValues(), nil).contains(AdyenOptions.sandboxAPIKey))
    }

    @Test func scenariosSayFlowAndProfilesTheFlag() throws {
        let catalog = try Catalog.bundled()
        let scenario = try ScenarioParser.parse(
            "name: advanced\nprovider: adyen\noptions:\n  flow: advanced\n  capture: manual\n", file: "s.yaml", catalog: catalog)
        #expect(scenario.options["adyen-flow"] == "advanced")
        #expect(throws: ScenarioError.self) {
            _ = try ScenarioParser.parse("name: x\nprovider: adyen\noptions:\n  flow: classic\n", file: "s.yaml", catalog: catalog)
        }
        do {
            _ = try ScenarioParser.parse("name: x\nprovider: adyen\noptions:\n  flow: classic\n", file: "s.yaml", catalog: catalog)
        } catch {
            #expect("\(error)".contains("--adyen-flow must be sessions or advanced"), "\(error)")
        }
        let roundTrip = try JSONSerialization.data(withJSONObject: scenario.jsonObject)
        #expect(try ScenarioParser.parse(String(decoding: roundTrip, as: UTF8.self), file: "r.json", catalog: catalog) == scenario)
    }
}
