import Foundation
import Testing
import TestSupport

/// Adyen's sessions flow on the real screen in tmux: the session asking for consent offers the
/// `store for next time` row, a cart change opens a new session for the new total, and the
/// banner and HTTP log show the session's calls through to the receipt naming the session.
@Suite(.serialized) struct AdyenSessionsJourneyTests {
    init() {
        if !TmuxSession.isAvailable { Issue.record("tmux is not installed; `make test` installs it") }
    }

    @Test func payThroughAnAdyenSessionByKeyboard() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try tmux.type("clear; '\(CheckoutBinary.url.path)' --store-payment-method-mode askForConsent --shopper-reference shopper-journey")
        // The screen is drawn (not `notStarted`: the chosen Cash App Pay makes its request on load).
        try await tmux.waitFor("TerminalCheckout · Driftwood Coffee Co.")
        try tmux.send("Tab", "Tab", "Down", "Down", "Enter")
        try await tmux.waitForAll(["(•) Cash App Pay (Adyen)", "[ ] store for next time"])
        try tmux.send("s")
        try await tmux.waitFor("[x] store for next time")
        try tmux.send("p")
        try await tmux.waitFor("readyToAuthorize")
        // A session is for one amount: the new total gets a new session, then the request is updated.
        try tmux.send("+")
        try await tmux.waitForAll(["$62.74 · elapsed", "readyToAuthorize"])
        try tmux.send("v")
        try await tmux.waitForAll(["POST  /v71/sessions", "/checkoutshopper/v1/sessions/"])
        try tmux.send("v")
        try tmux.send("p")
        try await tmux.waitFor("polling")
        try tmux.send("a")
        // Stored with the shopper's consent: the token webhook lists it beneath the method.
        try await tmux.waitForAll(["Adyen payment", "approved · completed", "· session CS", "$62.74", "GET   /v71/sessions/", "$SandboxShopper · saved"])
        try tmux.send("q")
    }
}
