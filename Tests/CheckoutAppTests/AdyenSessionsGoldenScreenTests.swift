@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import TerminalUI
import Testing

/// Adyen's sessions flow on the screen, at both sizes: its steps in the banner (which flow
/// runs), the component's client-key calls in the HTTP log, the `store for next time` row only
/// where the session asks for consent, and the receipt naming the session.
@Suite struct AdyenSessionsGoldenScreenTests {
    private func check(_ name: String, _ make: (Int, Int) throws -> AppState) throws {
        for (width, height) in GoldenScreenTests.sizes {
            let screen = CheckoutView.render(try make(width, height))
            #expect(screen.width == width && screen.height == height)
            try Golden.compare(screen.text, file: "\(name)-\(width)x\(height).txt")
            try Golden.compare(screen.styleMap, file: "\(name)-\(width)x\(height).style")
        }
    }

    /// A fresh screen whose payment pane is as these options make it, with Adyen chosen.
    private func state(_ options: [String: String], width: Int, height: Int) throws -> AppState {
        var state = try Screens.state(width: width, height: height)
        state.paymentMethods = TerminalCheckout.paymentMethods(.builtIn, options: ProviderOptionValues(options))
        let adyenRow = ProviderRegistry.builtIn.ids.firstIndex(of: "adyen") ?? 0
        _ = Screens.apply(([.tab, .tab] + [Key](repeating: .down, count: adyenRow) + [.enter]).map { AppMessage.key($0) }, to: &state)
        return state
    }

    private static let sessionID = "CS4F1E0B7A2D9C6E31"

    private static func component(_ id: Int, _ call: String, milliseconds: Int) -> HTTPExchange {
        HTTPExchange(
            id: id, provider: "adyen", attempt: 1, method: "POST",
            url: "http://127.0.0.1:8080/checkoutshopper/v1/sessions/\(sessionID)/\(call)?clientKey=\(AdyenClientKey.sandbox)",
            requestHeaders: [.init(name: "Accept", value: "application/json")], requestBody: #"{"sessionData":"Ab02b4c0!BQABAgA…"}"#,
            status: 200, responseHeaders: [.init(name: "Content-Type", value: "application/json")],
            responseBody: #"{"sessionData":"Ab02b4c0!BQABAgB…"}"#, startedAt: Screens.start, durationMilliseconds: milliseconds, failure: nil)
    }

    private static func server(_ id: Int, _ method: String, _ path: String, status: Int, milliseconds: Int) -> HTTPExchange {
        HTTPExchange(
            id: id, provider: "adyen", attempt: 1, method: method, url: "http://127.0.0.1:8080/v71" + path,
            requestHeaders: [.init(name: "X-API-Key", value: "[REDACTED]")], requestBody: nil, status: status,
            responseHeaders: [.init(name: "Content-Type", value: "application/json")], responseBody: "{}", startedAt: Screens.start,
            durationMilliseconds: milliseconds, failure: nil)
    }

    /// The default flow paying: no toggle (storePaymentMethodMode disabled), the session's calls in the log.
    @Test func theSessionsFlowPayingShowsItsStepAndCalls() throws {
        let request = Screens.request(status: .APPROVED, approved: true, provider: "adyen")
        try check("adyen-sessions-paying") { width, height in
            var state = try state([:], width: width, height: height)
            _ = Screens.apply(
                [
                    .phaseChanged(.step(AdyenAdapter.sessionStep)), .exchange(Self.server(1, "POST", "/sessions", status: 201, milliseconds: 6)),
                    .exchange(Self.component(2, "setup", milliseconds: 4)),
                ] + Screens.pollingMessages(provider: "adyen") + [
                    .stateChanged(.approved(request)), .phaseChanged(.step(AdyenAdapter.sessionPaymentStep)),
                    .exchange(Self.component(5, "payments", milliseconds: 9)),
                ], to: &state)
            return state
        }
    }

    /// askForConsent: the toggle row is offered; the completed receipt names the session.
    @Test func aSessionAskingForConsentOffersTheToggleAndItsReceiptNamesTheSession() throws {
        let request = Screens.request(status: .APPROVED, approved: true, provider: "adyen")
        try check("adyen-sessions-completed") { width, height in
            var state = try state(["store-payment-method-mode": "askForConsent"], width: width, height: height)
            let receipt = SettlementReceipt(
                paymentID: "N1PB3ZUWG6EXNXKA", payer: "$SandboxShopper",
                details: [
                    "flow": "sessions", "session_id": Self.sessionID, "session_status": "completed", "psp_reference": "N1PB3ZUWG6EXNXKA",
                    "result_code": "Authorised",
                ])
            _ = Screens.apply(
                Screens.pollingMessages(provider: "adyen") + [
                    .stateChanged(.approved(request)), .phaseChanged(.step(AdyenAdapter.sessionPaymentStep)),
                    .exchange(Self.component(5, "payments", milliseconds: 9)), .phaseChanged(.step(AdyenAdapter.sessionResultStep)),
                    .exchange(Self.server(6, "GET", "/sessions/\(Self.sessionID)?sessionResult=Ab02b4c0", status: 200, milliseconds: 3)),
                    .phaseChanged(.completed(receipt)),
                ], to: &state)
            return state
        }
    }

    /// The toggle as each flow and mode offers it.
    @Test(arguments: [
        ([String: String](), false), (["adyen-flow": "advanced"], true), (["store-payment-method-mode": "askForConsent"], true),
        (["store-payment-method-mode": "enabled"], false), (["adyen-flow": "advanced", "store": "true"], false),
    ])
    func theToggleIsOfferedWhereTheFlowAsks(options: [String: String], shown: Bool) throws {
        let methods = TerminalCheckout.paymentMethods(.builtIn, options: ProviderOptionValues(options))
        #expect((methods.first { $0.id == "adyen" }?.toggle != nil) == shown, "\(options)")
    }
}
