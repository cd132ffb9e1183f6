import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire
import TerminalUI
import Testing

/// Antom's screens as text at 100×30 and 80×24, in Thai and in English: the banks offered
/// while the customer pays at the bank (link and QR code in the locale's words), and a payment
/// the bank declined.
@Suite struct AntomGoldenScreenTests {
    private func check(_ name: String, styles: Bool = false, _ make: (Int, Int) throws -> AppState) throws {
        for (width, height) in GoldenScreenTests.sizes {
            let screen = CheckoutView.render(try make(width, height))
            try Golden.compare(screen.text, file: "\(name)-\(width)x\(height).txt")
            if styles { try Golden.compare(screen.styleMap, file: "\(name)-\(width)x\(height).style") }
        }
    }

    /// The payment pane: Antom chosen, its language switched `switches` times (en_US → in_ID → th_TH).
    private func choosingAntom(_ width: Int, _ height: Int, switches: Int) throws -> AppState {
        var state = try Screens.state(width: width, height: height, currency: "THB")
        let row = ProviderRegistry.builtIn.ids.firstIndex(of: "antom") ?? 0
        let keys = [Key.tab, .tab] + [Key](repeating: .down, count: row) + [.enter] + [Key](repeating: .character("s"), count: switches)
        _ = Screens.apply(keys.map { AppMessage.key($0) }, to: &state)
        return state
    }

    /// The Bangkok catalog's default cart: 2 × ฿450 + ฿390 − ฿100, VAT 7% on ฿1,190.
    private static let amount = Money(minorUnits: 127_330, currency: .thb)

    private func polling(_ state: inout AppState, locale: AntomLocale) {
        let banks = AntomBankCatalogue.banks(for: .bankCountry("TH"), currency: "THB", client: .app)
        let attempt = PaymentAttempt(
            provider: "antom", id: "tc-pay-7c1e9a40", status: .processing, amount: Self.amount, reference: "tc-0a1b2c3d",
            authorizationURL: "http://127.0.0.1:8080/sandbox/antom/cashier/SBXSESSION0001/page?locale=\(locale.rawValue)",
            linkRefreshesAt: Screens.start.addingTimeInterval(3600), offers: banks.map { locale == .thai ? $0.localName : $0.displayName })
        _ = Screens.apply([
            .key(.character("p")), .stateChanged(.creatingRequest(PaymentAttempt(provider: "antom", amount: Self.amount))),
            .exchange(Screens.exchange(1, "POST", "/ams/sandbox/api/v1/payments/createPaymentSession", status: 200, milliseconds: 14)),
            .exchange(Screens.exchange(2, "GET", "/sandbox/antom/cashier/SBXSESSION0001", status: 200, milliseconds: 3)),
            .stateChanged(.readyToAuthorize(attempt)), .stateChanged(.redirecting(attempt)), .stateChanged(.polling(attempt)),
            .exchange(Screens.exchange(3, "POST", "/ams/sandbox/api/v1/payments/inquiryPayment", status: 200, milliseconds: 4)),
            .tick(Screens.start.addingTimeInterval(7)),
        ], to: &state)
    }

    @Test func payingAtTheBankInThai() throws {
        try check("antom-polling-th_TH", styles: true) { width, height in
            var state = try choosingAntom(width, height, switches: 2)
            polling(&state, locale: .thai)
            return state
        }
    }

    @Test func payingAtTheBankInEnglish() throws {
        try check("antom-polling-en_US") { width, height in
            var state = try choosingAntom(width, height, switches: 0)
            polling(&state, locale: .english)
            return state
        }
    }

    @Test func theBankDeclinedInThai() throws {
        try check("antom-declined-th_TH") { width, height in
            var state = try choosingAntom(width, height, switches: 2)
            polling(&state, locale: .thai)
            var declined = state.checkout.state.createdAttempt ?? PaymentAttempt(provider: "antom")
            declined.status = .declined
            declined.declineReason = "USER_BALANCE_NOT_ENOUGH"
            _ = Screens.apply([.stateChanged(.declined(declined))], to: &state)
            return state
        }
    }

    /// The bank component's logger lines (`logWithName`) in the event list under the HTTP log,
    /// between its calls as they came: the banks loaded, ready for the customer to choose one, the
    /// QR code hidden (v) so the log shows at 100×30 too.
    @Test func theComponentsLogLinesInTheEventList() throws {
        try check("antom-sdk-log") { width, height in
            var state = try choosingAntom(width, height, switches: 0)
            let banks = AntomBankCatalogue.banks(for: .bankCountry("TH"), currency: "THB", client: .app)
            let attempt = PaymentAttempt(
                provider: "antom", id: "tc-pay-7c1e9a40", status: .pending, amount: Self.amount, reference: "tc-0a1b2c3d",
                authorizationURL: "http://127.0.0.1:8080/sandbox/antom/cashier/SBXSESSION0001/page?locale=en_US",
                linkRefreshesAt: Screens.start.addingTimeInterval(3600), offers: banks.map(\.displayName))
            func log(_ seconds: Double, _ name: String, _ parameters: [String: String]) -> AppMessage {
                .notice(.sdkLog(provider: "antom", SDKLogLine(name: name, parameters: parameters)), at: Screens.start.addingTimeInterval(seconds))
            }
            _ = Screens.apply([
                .key(.character("p")), .stateChanged(.creatingRequest(PaymentAttempt(provider: "antom", amount: Self.amount))),
                .exchange(Screens.exchange(1, "POST", "/ams/sandbox/api/v1/payments/createPaymentSession", status: 200, milliseconds: 14)),
                log(1, "initConfiguration", ["locale": "en_US", "sandbox": "true", "showLoading": "true"]),
                log(1, "createComponent", ["readable": "true", "paymentSessionId": "SBXSESSION0001", "environment": "sandbox"]),
                log(1, "onEventCallback", ["eventCode": "SDK_START_OF_LOADING"]),
                .exchange(Screens.exchange(2, "GET", "/sandbox/antom/cashier/SBXSESSION0001", status: 200, milliseconds: 3)),
                log(2, "onEventCallback", ["eventCode": "SDK_END_OF_LOADING"]),
                .stateChanged(.readyToAuthorize(attempt)), .tick(Screens.start.addingTimeInterval(3)),
                // v hides the QR code (at 100×30 it stands where the log is).
                .key(.character("v")),
            ], to: &state)
            return state
        }
    }

    @Test func aLoggedSecretOrControlCharacterNeverReachesTheScreen() throws {
        var state = try choosingAntom(80, 24, switches: 0)
        let line = SDKLogLine(name: "create\u{1B}[2J", parameters: ["paymentSessionData": "SECRET-DATA", "url": "https://user:pw@bank.example/x"])
        _ = Screens.apply([.notice(.sdkLog(provider: "antom", line), at: Screens.start)], to: &state)
        let text = CheckoutView.render(state).text
        #expect(text.contains("sdk_log create\\u{1B}[2J"), "\(text)")
        #expect(!text.contains("SECRET-DATA") && !text.contains("\u{1B}") && !text.contains("user:pw"), "\(text)")
    }

    @Test func theLanguageSwitchStepsThroughTheLocalesAndEachPaymentCarriesIt() throws {
        var state = try choosingAntom(100, 30, switches: 0)
        #expect(state.paymentOptions.isEmpty)
        var seen: [String] = []
        for _ in 0..<3 {
            _ = Screens.apply([.key(.character("s"))], to: &state)
            seen.append(state.paymentOptions["locale"] ?? "")
        }
        #expect(seen == ["in_ID", "th_TH", "en_US"])
    }
}
