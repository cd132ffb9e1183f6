@testable import CheckoutApp
import CheckoutModel
import Foundation
import ProviderClients
import TerminalUI
import Testing

/// A big order and a long session (`--bench-load`, `make bench`'s P3): the panes draw the rows
/// they show, keep the cursor's row on screen, and the log keeps its newest 100,000.
@Suite struct ScaleTests {
    @Test func benchLoadReadsCartAndLogCounts() throws {
        #expect(try BenchLoad(parsing: "cart=1000,log=100000") == BenchLoad(cartLines: 1000, logEntries: 100_000))
        #expect(try BenchLoad(parsing: "log=5") == BenchLoad(logEntries: 5))
        for bad in ["", "cart", "cart=-1", "cart=10001", "log=100001", "bags=3", "cart=1;log=2", "cart=x"] {
            #expect(throws: BenchLoadError.self, "\(bad)") { try BenchLoad(parsing: bad) }
        }
        do {
            _ = try BenchLoad(parsing: "cart=\u{1b}[31m")
            Issue.record("a control sequence was accepted")
        } catch {
            #expect(error.description.contains("cart=N,log=M"))
            #expect(!error.description.contains("\u{1b}"))
        }
    }

    @Test func aThousandLineCartScrollsToKeepTheCursorLineOnScreen() throws {
        var state = try Screens.state(width: 100, height: 30)
        BenchLoad(cartLines: 1000).apply(to: &state)
        #expect(state.cart.items.count == 1002)
        let top = CheckoutView.render(state)
        #expect(top.text.contains("›House Blend Beans"))
        #expect(!top.text.contains("Bench line 500 "))
        state.layout.cartCursor = 501
        let middle = CheckoutView.render(state)
        #expect(middle.text.contains("›Bench line 500 "))
        #expect(!middle.text.contains("House Blend Beans"))
        // The summary still ends the pane, with the total of every line.
        #expect(middle.text.contains("Total · Driftwood Coffee Co."))
        state.layout.cartCursor = 1001
        #expect(CheckoutView.render(state).text.contains("›Bench line 1000 "))
    }

    @Test func theLogKeepsItsNewestAndTheCursorStaysOnItsExchange() throws {
        var state = try Screens.state()
        BenchLoad(logEntries: AppUpdate.logLimit).apply(to: &state)
        #expect(state.exchanges.count == AppUpdate.logLimit)
        #expect(state.layout.logCursor == AppUpdate.logLimit - 1)
        state.layout.logCursor = 10
        let watched = state.exchanges[10].id
        BenchLoad(logEntries: 3).apply(to: &state)
        #expect(state.exchanges.count == AppUpdate.logLimit)
        #expect(state.layout.logCursor == 7)
        #expect(state.exchanges[7].id == watched)
        let screen = CheckoutView.render(state)
        #expect(screen.text.contains("HTTP log (100000)"))
    }
}

/// `checkout` with nothing after it skips the argument parser: the options must be what the
/// parser gives for no arguments (the flags read the same `SessionOptions.Defaults`).
@Suite struct DefaultScreenOptionsTests {
    @Test func noArgumentsMeanEveryDefault() throws {
        let options = try #require(TerminalCheckoutOptions.defaults(providerOptions: ProviderOptionValues(), environment: [:]))
        #expect(options.colors)
        #expect(options.authorizationTimeoutSeconds == 300)
        #expect(options.session.usesEmbeddedSandbox)
        #expect(options.session.sandboxURL == nil)
        #expect(options.session.faults.isEmpty)
        #expect(options.session.currency == "USD")
        #expect(options.session.retryBaseDelay == .milliseconds(2000))
        #expect(options.session.triggerRotationSeconds == 30 && options.session.requestLifetimeSeconds == 3600)
        #expect(options.scenario == nil && options.recordPath == nil && options.benchLoad == nil)
    }

    @Test func noColorInTheEnvironmentStillTurnsColoursOff() throws {
        let options = try #require(TerminalCheckoutOptions.defaults(providerOptions: ProviderOptionValues(), environment: ["NO_COLOR": "1"]))
        #expect(!options.colors)
    }
}
