import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Testing

/// Antom's pieces that need no network: display modes and the web-client rule, locales and
/// their fallback, how results map to the 13 states, and an expiring session re-created.
@Suite struct AntomFlowTests {
    @Test(arguments: [
        ("single-bank:SCB", #"{"bankName":"SCB"}"#),
        ("bank-type:ONLINE_BANKING", #"{"paymentMethodCategory":"ONLINE_BANKING"}"#),
        ("bank-country:ID", #"{"paymentMethodRegion":"ID"}"#),
    ])
    func eachDisplayModeSendsItsMetaData(spelling: String, metaData: String) throws {
        let mode = try AntomDisplayMode(spelling: spelling)
        #expect(mode.metaData == metaData)
        #expect(AntomDisplayMode(metaData: metaData) == mode)
        #expect(mode.spelling == spelling)
    }

    @Test(arguments: ["single-bank:NOPE", "bank-type:CHEQUE", "bank-country:SG", "bank-country", "", "mode:TH"])
    func anUnknownModeNamesWhatIsAllowed(spelling: String) {
        #expect(throws: AntomModeError.self) { try AntomDisplayMode(spelling: spelling) }
        let message = AntomModeError(spelling: spelling).description
        #expect(message.contains("bank-country:TH|ID") && message.contains("MOBILE_BANKING_APP") && message.contains("SCB"))
    }

    @Test func eachCountryHasItsBanks() {
        let thai = AntomBankCatalogue.banks(for: .bankCountry("TH"), currency: "THB", client: .app).map(\.bankName)
        let indonesian = AntomBankCatalogue.banks(for: .bankCountry("ID"), currency: "IDR", client: .app).map(\.bankName)
        #expect(Set(["SCB", "KBANK", "BBL", "KTB"]).isSubset(of: thai))
        #expect(Set(["BCA", "MANDIRI", "BNI"]).isSubset(of: indonesian))
        #expect(AntomBankCatalogue.banks(for: .singleBank("BBL"), currency: "THB", client: .web).map(\.bankName) == ["BBL"])
    }

    @Test func bankTypeModeKeepsToTheCurrencysCountryAndNeverOffersAppsToTheWeb() {
        let online = AntomBankCatalogue.banks(for: .bankType(.onlineBanking), currency: "IDR", client: .web)
        #expect(!online.isEmpty && online.allSatisfy { $0.country == "ID" && $0.categories.contains(.onlineBanking) })
        #expect(!AntomBankCatalogue.banks(for: .bankType(.mobileBankingApp), currency: "THB", client: .app).isEmpty)
        #expect(AntomBankCatalogue.banks(for: .bankType(.mobileBankingApp), currency: "THB", client: .web).isEmpty)
    }

    @Test func localesAndTheirFallback() {
        #expect(AntomLocale.resolve("th_TH") == (.thai, false))
        #expect(AntomLocale.resolve("in_ID") == (.indonesian, false))
        #expect(AntomLocale.resolve("en_US") == (.english, false))
        #expect(AntomLocale.resolve("fr_FR") == (.english, true))
        #expect(AntomLocale.resolve(nil) == (.english, false))
        #expect(AntomLocale.fallbackNotice("fr_FR").contains("fr_FR") && AntomLocale.fallbackNotice("fr_FR").contains("en_US"))
        for locale in AntomLocale.allCases {
            #expect(Set(locale.stateSentences.keys) == Set(AntomLocale.english.stateSentences.keys), "\(locale) lacks a sentence")
        }
        #expect(AntomLocale.thai.stateSentences["polling"] != AntomLocale.english.stateSentences["polling"])
    }

    @Test(arguments: [
        ("INVALID_SIGNATURE", "F", ProviderFailure.Kind.integration), ("KEY_NOT_FOUND", "F", .integration), ("ACCESS_DENIED", "F", .integration),
        ("PARAM_ILLEGAL", "F", .integration), ("REPEAT_REQ_INCONSISTENT", "F", .integration), ("ORDER_IS_CLOSED", "F", .integration),
        ("CURRENCY_NOT_SUPPORT", "F", .integration), ("REQUEST_TRAFFIC_EXCEED_LIMIT", "U", .integration), ("UNKNOWN_EXCEPTION", "U", .api),
        ("PROCESS_FAIL", "F", .api), ("SOMETHING_NEW", "F", .unexpected), ("SOMETHING_NEW", "U", .api),
    ])
    func resultsLeadToTheirStates(code: String, status: String, kind: ProviderFailure.Kind) {
        let failure = ProviderFailure(antom: .result(AntomResult(resultCode: code, resultStatus: status, resultMessage: "m")))
        #expect(failure.kind == kind)
        #expect(failure.code == code)
    }

    @Test func anAnswerThatDoesNotVerifyIsAnIntegrationErrorAndOutagesAreAPIErrors() {
        #expect(ProviderFailure(antom: .unverified(status: 200, detail: "x")).kind == .integration)
        #expect(ProviderFailure(antom: .http(status: 503, body: "")).kind == .api)
        #expect(ProviderFailure(antom: .transport(.connectionLost("reset"))).kind == .network)
        #expect(ProviderFailure(antom: .undecodable(status: 200, detail: "x")).kind == .network)
    }

    @Test(arguments: AntomSDKError.allCases)
    func eachSDKErrorLeadsToItsState(error: AntomSDKError) {
        let expected: ProviderFailure.Kind = switch error {
        case .parameterError, .integrationError: .integration
        case .callURLError: .api
        case .internalError: .unexpected
        }
        let failure = AntomComponentFailure(error, "detail").providerFailure
        #expect(failure.kind == expected && failure.code == error.rawValue)
    }

    @Test func onlyUnknownResultsAndOutagesAreRetried() {
        #expect(AntomClient.isRetryable(.result(AntomResult(resultCode: "UNKNOWN_EXCEPTION", resultStatus: "U"))))
        #expect(!AntomClient.isRetryable(.result(AntomResult(resultCode: "PARAM_ILLEGAL", resultStatus: "F"))))
        #expect(!AntomClient.isRetryable(.unverified(status: 200, detail: "x")))
        #expect(AntomClient.isRetryable(.http(status: 502, body: "")))
    }

    @Test func anExpiringUnpaidSessionIsRecreated() {
        var attempt = PaymentAttempt(provider: "antom", id: "req-1", status: .processing, amount: Fixture.order().amount, reference: "tc-test")
        var machine = Fixture.machine(.polling(attempt))
        attempt.needsRenewal = true
        let effects = machine.handle(Fixture.result(.retrieved(attempt)))
        #expect(machine.state == .refreshing(attempt))
        #expect(effects.contains(.refresh(attempt)))
    }

    @Test func amountsAreStringsOfMinorUnits() {
        #expect(AntomAmount(currency: "THB", minorUnits: 129_000).value == "129000")
        #expect(AntomAmount(currency: "IDR", value: "0012").minorUnits == 12)
        #expect(AntomAmount(currency: "THB", value: "-5").minorUnits == nil)
        #expect(AntomAmount(currency: "THB", value: "1e5").minorUnits == nil)
        #expect(AntomAmount(currency: "THB", value: String(repeating: "9", count: 30)).minorUnits == nil)
    }
}
