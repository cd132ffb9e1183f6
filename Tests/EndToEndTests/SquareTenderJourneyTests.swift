import Foundation
import Testing
import TestSupport

/// Square's issue-28 paths on the real screen in tmux: a gift card's partial authorization with
/// the remainder on a second card and a tip added to the authorized sale before completing it;
/// and another card after a decline, keeping the reference.
@Suite(.serialized) struct SquareTenderJourneyTests {
    init() {
        if !TmuxSession.isAvailable { Issue.record("tmux is not installed; `make test` installs it") }
    }

    private func chooseSquare(_ tmux: TmuxSession, flags: String) async throws {
        try tmux.type("clear; '\(CheckoutBinary.url.path)' \(flags)")
        try await tmux.waitFor("TerminalCheckout · Driftwood Coffee Co.")
        try tmux.send("Tab", "Tab", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("(•) Card (Square)")
        try tmux.send("p")
        try await tmux.waitForAll(["Add a tip?", "No tip"])
        try tmux.send("Enter")
        try await tmux.waitFor("Tap, insert or swipe a card")
    }

    @Test func aGiftCardPaysPartTheCardTheRestAndATipIsAddedBeforeCompleting() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await chooseSquare(tmux, flags: "--accept-partial-authorization")
        // The gift card is the reader's last row (offered with partial authorization accepted).
        try await tmux.waitFor("Gift card •••• 0000 · gift")
        try tmux.send("Down", "Down", "Down", "Down", "Down", "Down", "Down", "t")
        try await tmux.waitForAll(["Remainder $35.05", "Partly paid: $10.00 approved"])
        try tmux.send("t")
        try await tmux.waitForAll(["Authorized $45.05 · 2 payments", "Gift card •••• 0000", "t add tip"])
        try tmux.send("t")
        // The percentages are of the whole sale; Esc cannot walk away from an authorized sale, b goes back.
        try await tmux.waitForAll(["Add a tip to the authorized payment?", "Amount $45.05", "b back"])
        try tmux.send("Escape")
        try await tmux.waitFor("Decide first")
        try tmux.send("b")
        try await tmux.waitForAll(["Authorized $45.05 · 2 payments", "t add tip"])
        try tmux.send("t")
        try await tmux.waitFor("Add a tip to the authorized payment?")
        try tmux.send("Down", "Enter")
        try await tmux.waitForAll(["PUT   /v2/payments/", "Authorized $49.56 · 2 payments"])
        try tmux.send("c")
        try await tmux.waitForAll(["approved · completed", "Sale in 2 payments", "Gift card •••• 0000   $10.00", "COMPLETED · Receipt #", "Total   $49.56"])
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
    }

    @Test func anotherCardAfterADeclineKeepsTheReference() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await chooseSquare(tmux, flags: "")
        // The declined Mastercard is the second row.
        try tmux.send("Down", "t")
        try await tmux.waitForAll(["Declined: GENERIC_DECLINE", "a try another card"])
        try tmux.send("a")
        try await tmux.waitFor("Tap, insert or swipe a card")
        try tmux.send("t")
        try await tmux.waitForAll(["approved · completed", "Visa •••• 1111"])
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
    }
}
