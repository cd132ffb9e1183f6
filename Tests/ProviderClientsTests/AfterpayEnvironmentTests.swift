import ProviderClients
import Testing

/// How an Afterpay account and a Cash App host are placed in sandbox or production, and the
/// refusal when they disagree.
@Suite struct AfterpayEnvironmentTests {
    @Test(arguments: [
        ("https://global-api-sandbox.afterpay.com", AfterpayEnvironment.sandbox),
        ("https://api-plus.us-sandbox.afterpay.com/", .sandbox),
        ("https://global-api.afterpay.com", .production),
        ("https://api-plus.us.afterpay.com", .production),
        ("https://global-api-sandbox.clearpay.co.uk", .sandbox),
    ])
    func afterpayHostsAreRecognised(url: String, environment: AfterpayEnvironment) {
        #expect(AfterpayEnvironment.ofAfterpay(url) == environment)
    }

    @Test(arguments: ["http://127.0.0.1:8080", "https://merchant.example/afterpay", "https://notafterpay.com", "not a url"])
    func otherHostsSayNothing(url: String) {
        #expect(AfterpayEnvironment.ofAfterpay(url) == nil)
        #expect(AfterpayEnvironment.ofCashApp(url) == nil)
    }

    @Test func cashAppHostsAreRecognised() {
        #expect(AfterpayEnvironment.ofCashApp("https://sandbox.api.cash.app") == .sandbox)
        #expect(AfterpayEnvironment.ofCashApp("https://api.cash.app/") == .production)
    }

    /// The Afterpay SDK's Environment.cashAppClientId.
    @Test func theClientIDIsTheAfterpaySDKsForTheEnvironment() {
        #expect(AfterpayEnvironment.sandbox.cashAppClientID == "CAS-CI_AFTERPAY")
        #expect(AfterpayEnvironment.production.cashAppClientID == "CA-CI_AFTERPAY")
    }

    private func mismatch(_ merchant: String?, _ signing: String?, cashApp: String?) -> String? {
        AfterpayEnvironment.mismatch(
            afterpay: [(flag: "afterpay-url", url: merchant), (flag: "afterpay-signing-url", url: signing)],
            cashApp: (flag: "cashapp-url", url: cashApp))
    }

    @Test func aSandboxAccountWithProductionCashAppIsRefusedNamingBoth() {
        #expect(
            mismatch("https://global-api-sandbox.afterpay.com", "https://api-plus.us-sandbox.afterpay.com", cashApp: "https://api.cash.app")
                == "the Afterpay account is sandbox (global-api-sandbox.afterpay.com) but --cashapp-url is production (api.cash.app); "
                + "Afterpay's Cash App Pay needs both in one environment")
        #expect(
            mismatch("https://global-api.afterpay.com", "https://api-plus.us.afterpay.com", cashApp: "https://sandbox.api.cash.app")
                == "the Afterpay account is production (global-api.afterpay.com) but --cashapp-url is sandbox (sandbox.api.cash.app); "
                + "Afterpay's Cash App Pay needs both in one environment")
        // The embedded sandbox serves Afterpay (no URLs): it is a sandbox account.
        #expect(mismatch(nil, nil, cashApp: "https://api.cash.app")?.hasPrefix("the Afterpay account is sandbox (the checkout's sandbox) but --cashapp-url is production (api.cash.app)") == true)
    }

    @Test func matchingOrUnrecognisedHostsAreAccepted() {
        #expect(mismatch("https://global-api-sandbox.afterpay.com", "https://api-plus.us-sandbox.afterpay.com", cashApp: "https://sandbox.api.cash.app") == nil)
        #expect(mismatch("https://global-api.afterpay.com", "https://api-plus.us.afterpay.com", cashApp: "https://api.cash.app") == nil)
        #expect(mismatch(nil, nil, cashApp: nil) == nil)
        // A merchant's own server in front of Afterpay says nothing; the signing host still does.
        #expect(mismatch("https://shop.example", "https://api-plus.us.afterpay.com", cashApp: "https://api.cash.app") == nil)
        #expect(mismatch("https://shop.example", "https://api-plus.us.afterpay.com", cashApp: "https://sandbox.api.cash.app") != nil)
        #expect(mismatch("https://shop.example", "https://signing.example", cashApp: "https://api.cash.app") == nil)
    }

    @Test func anAccountSplitAcrossEnvironmentsIsRefused() {
        #expect(
            mismatch("https://global-api.afterpay.com", "https://api-plus.us-sandbox.afterpay.com", cashApp: nil)
                == "the Afterpay account is split: --afterpay-url is production (global-api.afterpay.com) but --afterpay-signing-url is sandbox "
                + "(api-plus.us-sandbox.afterpay.com); use one environment")
    }
}
