import CheckoutApp
import Sandbox
import Testing

/// How the registry makes a sandbox's provider sides: Cash App's requests are Cash App's own
/// service, handed to the sides that depend on it, and a provider's settings are its own.
@Suite struct SandboxAssemblyTests {
    @Test func afterpayAndAdyenAreHandedTheCashAppSandboxTheSandboxServes() async {
        let providers = await ProviderRegistry.builtIn.sandboxProviders(SandboxSettings())
        #expect(providers.map(\.id) == ProviderRegistry.builtIn.ids)
        let cashApp = providers.compactMap { $0 as? CashAppSandbox }
        #expect(cashApp.count == 1)
        let afterpay = providers.lazy.compactMap { $0 as? AfterpaySandbox }.first
        let adyen = providers.lazy.compactMap { $0 as? AdyenSandbox }.first
        #expect(afterpay?.cashApp.requests === cashApp.first?.requests)
        #expect(adyen?.cashApp.requests === cashApp.first?.requests)
    }

    @Test func aSideThatDependsOnCashAppBringsItWhenTheRegistryLeavesItOut() async {
        let providers = await ProviderRegistry.builtIn.restricted(to: ["adyen", "afterpay"]).sandboxProviders(SandboxSettings())
        #expect(providers.map(\.id) == ["cashapp", "afterpay", "adyen"])
    }

    @Test func aProvidersSettingsAreItsOwnWithTheirDefaultsUntilSet() {
        var settings = SandboxSettings()
        #expect(settings.adyen.hmacKey == nil && settings.adyen.asyncResultDelay == 2)
        settings.adyen.hmacKey = "00ff"
        settings.adyen.asyncResultDelay = 0.5
        #expect(settings[AdyenSandboxSettings.self].hmacKey == "00ff" && settings.adyen.asyncResultDelay == 0.5)
    }
}
