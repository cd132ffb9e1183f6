import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire
import TerminalUI
import Testing

/// Whole screens as text (and, where colour carries meaning, as style maps), compared with
/// files in Golden/. Run with UPDATE_GOLDEN=1 to rewrite them after an intended change.
@Suite struct GoldenScreenTests {
    static let sizes = [(100, 30), (80, 24)]

    private func check(_ name: String, styles: Bool = false, _ make: (Int, Int) throws -> AppState) throws {
        for (width, height) in Self.sizes {
            let screen = CheckoutView.render(try make(width, height))
            #expect(screen.width == width && screen.height == height)
            try Golden.compare(screen.text, file: "\(name)-\(width)x\(height).txt")
            if styles { try Golden.compare(screen.styleMap, file: "\(name)-\(width)x\(height).style") }
        }
    }

    @Test func initialCheckout() throws {
        try check("initial", styles: true) { try Screens.state(width: $0, height: $1) }
    }

    @Test func shippingChanged() throws {
        try check("shipping-changed") { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply([.key(.tab), .key(.down), .key(.enter)], to: &state)
            return state
        }
    }

    @Test func readyToAuthorize() throws {
        try check("ready-to-authorize", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(Screens.created, to: &state)
            return state
        }
    }

    @Test func polling() throws {
        try check("polling") { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(Screens.polling, to: &state)
            return state
        }
    }

    @Test func approved() throws {
        try check("approved", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            let request = Screens.request(status: .APPROVED, approved: true)
            _ = Screens.apply(Screens.polling + [.stateChanged(.approved(request))], to: &state)
            return state
        }
    }

    @Test func declined() throws {
        try check("declined", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(Screens.polling + [.stateChanged(.declined(Screens.request(status: .DECLINED)))], to: &state)
            return state
        }
    }

    @Test func apiError() throws {
        try check("api-error", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            let error = ProviderFailure(kind: .api, category: "API_ERROR", code: "INTERNAL_SERVER_ERROR", detail: "Sandbox magic amount 6670: the API failed.")
            _ = Screens.apply([
                .stateChanged(.creatingRequest(PaymentAttempt(provider: "cashapp", amount: Money(minorUnits: 4505, currency: .usd)))),
                .exchange(Screens.exchange(1, "POST", "/customer-request/v1/requests", status: 500, milliseconds: 9)),
                .stateChanged(.apiError(error)),
            ], to: &state)
            return state
        }
    }

    @Test func afterpayCompletedAndFailed() throws {
        let request = Screens.request(status: .APPROVED, approved: true, provider: "afterpay")
        let approved: [AppMessage] = Screens.pollingMessages(provider: "afterpay") + [
            .stateChanged(.approved(request)), .phaseChanged(.step("validating")), .phaseChanged(.step("capturing")),
        ]
        try check("afterpay-completed", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply([.key(.tab), .key(.tab), .key(.down), .key(.enter)], to: &state)
            _ = Screens.apply(approved + [.phaseChanged(.completed(SettlementReceipt(paymentID: "100200300", payer: "$SandboxShopper")))], to: &state)
            return state
        }
        try check("afterpay-settlement-failed", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply([.key(.tab), .key(.tab), .key(.down), .key(.enter)], to: &state)
            _ = Screens.apply(approved + [.phaseChanged(.settlementFailed(SettlementFailure(declined: true, reason: "capture DECLINED: payment 100200300 is CAPTURE_DECLINED")))], to: &state)
            return state
        }
    }

    /// Afterpay's signing failed, was retried with a new checkout token and failed again
    /// (apiError, the log showing both tokens); and an Afterpay sandbox account paired with
    /// production Cash App (integrationError before any call).
    @Test func afterpaySigningFailedAfterItsRetryAndEnvironmentMismatch() throws {
        let chooseAfterpay: [AppMessage] = [.key(.tab), .key(.tab), .key(.down), .key(.enter)]
        try check("afterpay-signing-failed", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(chooseAfterpay, to: &state)
            let failure = ProviderFailure(
                kind: .api, category: "API_ERROR", code: "ERROR",
                detail: "signing failed again after retrying with a new checkout token: Sandbox magic amount 33.31: the payment could not be signed; retry with a new checkout token.",
                httpStatus: 500)
            _ = Screens.apply([
                .phaseChanged(.step("token")),
                .exchange(Screens.exchange(1, "GET", "/v2/configuration", status: 200, milliseconds: 2)),
                .exchange(Screens.exchange(2, "POST", "/v2/checkouts", status: 201, milliseconds: 3)),
                .phaseChanged(.step("signing")),
                .exchange(Screens.exchange(3, "POST", "/v2/payments/sign-payment", status: 500, milliseconds: 2)),
                .phaseChanged(.step("token")),
                .exchange(Screens.exchange(4, "POST", "/v2/checkouts", status: 201, milliseconds: 3)),
                .phaseChanged(.step("signing")),
                .exchange(Screens.exchange(5, "POST", "/v2/payments/sign-payment", status: 500, milliseconds: 2)),
                .stateChanged(.apiError(failure)),
            ], to: &state)
            return state
        }
        try check("afterpay-environment-mismatch", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(chooseAfterpay, to: &state)
            let failure = ProviderFailure(
                kind: .integration, category: "AFTERPAY", code: "ENVIRONMENT_MISMATCH",
                detail: "the Afterpay account is sandbox (the checkout's sandbox) but --cashapp-url is production (api.cash.app); Afterpay's Cash App Pay needs both in one environment")
            _ = Screens.apply([.stateChanged(.integrationError(failure))], to: &state)
            return state
        }
    }

    @Test func adyenCompletedWithAStoredMethodAndRefused() throws {
        let request = Screens.request(status: .APPROVED, approved: true, provider: "adyen")
        let approved: [AppMessage] = Screens.pollingMessages(provider: "adyen") + [
            .stateChanged(.approved(request)), .phaseChanged(.step("authorising")),
        ]
        let adyenRow = ProviderRegistry.builtIn.ids.firstIndex(of: "adyen") ?? 0
        let chooseAdyen = ([.tab, .tab] + [Key](repeating: .down, count: adyenRow) + [.enter]).map { AppMessage.key($0) }
        try check("adyen-completed-stored", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(chooseAdyen, to: &state)
            let receipt = SettlementReceipt(
                paymentID: "N1PB3ZUWG6EXNXKA", payer: "$SandboxShopper",
                details: ["psp_reference": "N1PB3ZUWG6EXNXKA", "result_code": "Authorised", "stored_payment_method_id": "4TKCY2A1ZP0LXOHA"])
            _ = Screens.apply(approved + [.phaseChanged(.completed(receipt))], to: &state)
            return state
        }
        try check("adyen-refused", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(chooseAdyen, to: &state)
            let failure = SettlementFailure(
                declined: true, reason: "Refused (Not enough balance): choose another method",
                details: ["psp_reference": "N1PB3ZUWG6EXNXKA", "result_code": "Refused", "refusal_reason": "Not enough balance"])
            _ = Screens.apply(approved + [.phaseChanged(.settlementFailed(failure))], to: &state)
            return state
        }
    }

    @Test func adyenWithItsStoredMethods() throws {
        let adyenRow = ProviderRegistry.builtIn.ids.firstIndex(of: "adyen") ?? 0
        let stored = ["$SandboxShopper", "$Driftwood"].enumerated().map { index, cashtag in
            SavedPaymentMethod(provider: "adyen", id: "STORED\(index)", label: cashtag, options: ["stored-payment-method": "STORED\(index)"])
        }
        try check("adyen-stored-methods", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(([.tab, .tab] + [Key](repeating: .down, count: adyenRow) + [.enter]).map { AppMessage.key($0) }, to: &state)
            _ = Screens.apply([.savedMethodsLoaded(provider: "adyen", stored, reason: nil), .key(.down), .key(.down)], to: &state)
            return state
        }
    }

    @Test func adyenAwaitingTheWebhookWithEventsInTheLog() throws {
        let request = Screens.request(status: .APPROVED, approved: true, provider: "adyen")
        let adyenRow = ProviderRegistry.builtIn.ids.firstIndex(of: "adyen") ?? 0
        let chooseAdyen = ([.tab, .tab] + [Key](repeating: .down, count: adyenRow) + [.enter]).map { AppMessage.key($0) }
        let rejected = ProviderNotice(
            provider: "adyen", name: "AUTHORISATION", summary: "webhook AUTHORISATION N1PB3ZUWG6EXNXKA success ✗ bad signature",
            verified: false)
        let verified = ProviderNotice(
            provider: "adyen", name: "AUTHORISATION", summary: "webhook AUTHORISATION N1PB3ZUWG6EXNXKA success signature ✓", verified: true)
        try check("adyen-awaiting-webhook", styles: true) { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(chooseAdyen, to: &state)
            _ = Screens.apply(
                Screens.pollingMessages(provider: "adyen") + [
                    .stateChanged(.approved(request)), .phaseChanged(.step("authorising")), .phaseChanged(.step("awaitingWebhook")),
                    .notice(rejected, at: Screens.start.addingTimeInterval(11)), .notice(verified, at: Screens.start.addingTimeInterval(12)),
                ], to: &state)
            return state
        }
    }

    @Test func tooSmall() throws {
        var state = try Screens.state(width: 70, height: 20)
        try Golden.compare(CheckoutView.render(state).text, file: "too-small-70x20.txt")
        state.layout.width = 79
        state.layout.height = 24
        #expect(CheckoutView.render(state).text.contains("terminal too small: need 80×24, have 79×24"))
    }

    @Test func helpOverlay() throws {
        try check("help") { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply([.key(.character("?"))], to: &state)
            return state
        }
    }

    @Test func httpDetailOverlay() throws {
        try check("http-detail") { width, height in
            var state = try Screens.state(width: width, height: height)
            _ = Screens.apply(Screens.created + [.key(.tab), .key(.tab), .key(.tab), .key(.enter)], to: &state)
            #expect(state.layout.overlay == .httpDetail(exchangeID: 1, scroll: 0))
            return state
        }
    }
}

/// Reading and (with UPDATE_GOLDEN=1) writing golden files.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func compare(_ actual: String, file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(file)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try (actual + "\n").write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden \(file); run UPDATE_GOLDEN=1 swift test --filter GoldenScreenTests", sourceLocation: sourceLocation)
            return
        }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard expectedLines != actualLines else { return }
        let firstDifference = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        Issue.record("""
            \(file) differs at line \(firstDifference + 1)
            expected: \(firstDifference < expectedLines.count ? expectedLines[firstDifference] : "<none>")
            actual:   \(firstDifference < actualLines.count ? actualLines[firstDifference] : "<none>")
            whole screen:
            \(actual)
            """, sourceLocation: sourceLocation)
    }
}
