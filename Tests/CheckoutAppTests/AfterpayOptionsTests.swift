@testable import CheckoutApp
import Testing

/// The Cash App client id Afterpay's checkout uses, and the environment refusal as an option
/// problem (the same on the command line, in scenarios and in profiles).
@Suite struct AfterpayOptionsTests {
    @Test func theClientIDFollowsTheAccountsEnvironmentUnlessGiven() {
        #expect(AfterpayOptions.cashAppClientID(ProviderOptionValues()) == "CAS-CI_AFTERPAY")
        let production = ProviderOptionValues([
            "afterpay-url": "https://global-api.afterpay.com", "afterpay-signing-url": "https://api-plus.us.afterpay.com",
        ])
        #expect(AfterpayOptions.cashAppClientID(production) == "CA-CI_AFTERPAY")
        // A merchant's own server says nothing; the Cash App host then decides.
        #expect(AfterpayOptions.cashAppClientID(ProviderOptionValues(["afterpay-url": "https://shop.example", "cashapp-url": "https://api.cash.app"])) == "CA-CI_AFTERPAY")
        #expect(AfterpayOptions.cashAppClientID(ProviderOptionValues(["client-id": "CAS-CI_mine", "afterpay-url": "https://global-api.afterpay.com"])) == "CAS-CI_mine")
    }

    @Test func aMismatchIsAnOptionProblemOnlyWhenAnAfterpayURLIsGiven() {
        var values = ProviderOptionValues([
            "afterpay-url": "https://global-api-sandbox.afterpay.com", "afterpay-signing-url": "https://api-plus.us-sandbox.afterpay.com",
            "afterpay-merchant-id": "100101", "afterpay-secret-key": "k", "cashapp-url": "https://api.cash.app",
        ])
        #expect(AfterpayOptions.problem(values)?.hasPrefix("the Afterpay account is sandbox (global-api-sandbox.afterpay.com) but --cashapp-url is production (api.cash.app)") == true)
        values = ProviderOptionValues(["cashapp-url": "https://api.cash.app"])
        // Cash App Pay alone against production is fine; Afterpay's adapter refuses at its first step.
        #expect(AfterpayOptions.problem(values) == nil)
        #expect(AfterpayOptions.environmentProblem(values) != nil)
    }
}
