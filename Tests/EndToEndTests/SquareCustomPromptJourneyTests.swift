import Foundation
import Testing
import TestSupport

/// Square's merchant-drawn prompt (`--prompt custom`) in a real terminal (tmux): the reader
/// disconnected, reconnected and on a low battery from the prompt's keys, the pane redrawn each
/// time; a payment cancelled through its handle before the card is read; then a delayed payment
/// tapped and cancelled after the read (CancelPaymentByIdempotencyKey).
@Suite(.serialized) struct SquareCustomPromptJourneyTests {
    init() {
        if !TmuxSession.isAvailable { Issue.record("tmux is not installed; `make test` installs it") }
    }

    @Test func theMerchantDrawnPromptFollowsTheReaderAndCancelsThroughTheHandle() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try tmux.type("clear; '\(CheckoutBinary.url.path)' --prompt custom --tip 0 --delay 600")
        try await tmux.waitFor("TerminalCheckout · Driftwood Coffee Co.")
        // Square is the fourth payment method.
        try tmux.send("Tab", "Tab", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("(•) Card (Square)")
        try tmux.send("p")
        try await tmux.waitForAll(["Merchant-drawn prompt", "Card input methods: tap, dip, swipe", "Additional methods: keyed", "Payment cancelable: yes"])
        try tmux.send("r")
        try await tmux.waitForAll(["Reader: disconnected", "Card input methods: none", "r connect"])
        try tmux.send("r")
        try await tmux.waitFor("Reader: connected, battery ok")
        try tmux.send("b")
        try await tmux.waitForAll(["Reader: connected, battery low", "Card input methods: tap"])
        // Cancelled before the card is read: nothing is created.
        try tmux.send("x")
        try await tmux.waitForAll(["declined", "PAYMENT_CANCELED"])
        try tmux.send("r")
        try await tmux.waitFor("notStarted")
        try tmux.send("p")
        // The reader is still on a low battery: contactless only.
        try await tmux.waitForAll(["Merchant-drawn prompt", "Reader: connected, battery low"])
        try tmux.send("t")
        try await tmux.waitForAll(["Payment cancelable: yes (autocomplete off)", "x cancel payment"])
        try tmux.send("x")
        try await tmux.waitForAll(["Cancelled through the payment handle", "/v2/payments/cancel"])
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
    }
}
