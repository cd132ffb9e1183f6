@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import TerminalUI
import Testing

/// Demo scripts and replays, driven with a hand-moved clock (no waiting).
@Suite struct DirectorTests {
    private func keys(_ script: DemoScript) -> [Key] {
        script.steps.compactMap { if case .press(let key) = $0 { key } else { nil } }
    }

    @Test func theDemoScriptAddsItemsPicksShippingPaysAndApproves() throws {
        let catalog = try Catalog.bundled()
        var scenario = Scenario(name: "demo")
        scenario.provider = "afterpay"
        scenario.cart = [.sku("BEAN-HOUSE-12", quantity: 2), .sku("KETTLE-GOOSE", quantity: 1)]
        scenario.shipping = "express"
        let script = try DemoScript(scenario: scenario, catalog: catalog)
        #expect(script.startingCart.items.map(\.sku) == ["BEAN-HOUSE-12"])
        #expect(script.startingCart.items.first?.quantity == 1)
        #expect(script.startingCart.selectedShippingID == "standard")

        let pressed = keys(script)
        // The kettle is the fourth product: n, three downs, Enter.
        let add = try #require(pressed.firstIndex(of: .character("n")))
        #expect(Array(pressed[add...].prefix(5)) == [.character("n"), .down, .down, .down, .enter])
        #expect(pressed.filter { $0 == .character("+") }.count == 1)
        let pay = try #require(pressed.firstIndex(of: .character("p")))
        #expect(Array(pressed[pay...]) == [.character("p"), .character("p"), .character("a"), .character("r")])
        #expect(script.steps.contains { if case .loopDone = $0 { true } else { false } })
    }

    @Test func aDecliningScenarioMakesTheDemoPressX() throws {
        var scenario = Scenario(name: "no")
        scenario.customer = .decline
        let script = try DemoScript(scenario: scenario, catalog: try Catalog.bundled())
        #expect(keys(script).contains(.character("x")))
        #expect(!keys(script).contains(.character("a")))
    }

    @Test func theDemoWaitsItsPausesAndAnyKeyPausesIt() throws {
        let script = try DemoScript(scenario: Scenario(name: "demo"), catalog: try Catalog.bundled())
        var director = DemoDirector(script: script)
        var state = try Screens.state()
        let start = Screens.start
        // The first turn starts the cart and narrates, then holds on the first pause.
        #expect(director.due(now: start, state: &state).isEmpty)
        #expect(state.layout.notice?.text.hasPrefix("Demo: demo.") == true)
        #expect(state.director?.label == "▶ demo · loop 1")
        #expect(director.due(now: start.addingTimeInterval(1), state: &state).isEmpty)

        #expect(director.intercept(.character(" "), state: &state) == nil)
        #expect(state.director?.label == "⏸ demo paused · loop 1")
        // Paused: time passes, nothing is pressed.
        #expect(director.due(now: start.addingTimeInterval(60), state: &state).isEmpty)
        #expect(director.intercept(.character("z"), state: &state) == nil)
        #expect(state.director?.label == "▶ demo · loop 1")
        #expect(director.intercept(.character("q"), state: &state) == nil)
        #expect(state.quitRequested)
    }

    @Test func eachDemoLoopStartsWithAnEmptyHTTPLog() throws {
        let script = try DemoScript(scenario: Scenario(name: "demo"), catalog: try Catalog.bundled())
        var director = DemoDirector(script: script)
        var state = try Screens.state()
        for id in 1...3 { _ = AppUpdate.update(&state, .exchange(Screens.exchange(id, "GET", "/v1/requests/\(id)", status: 200, milliseconds: 40))) }
        #expect(state.exchanges.count == 3)
        _ = director.due(now: Screens.start, state: &state)
        #expect(state.exchanges.isEmpty, "the last loop's exchanges are gone")
        #expect(state.layout.logCursor == nil)
        _ = AppUpdate.update(&state, .exchange(Screens.exchange(4, "POST", "/v1/requests", status: 201, milliseconds: 40)))
        #expect(state.exchanges.map(\.id) == [4])
        #expect(state.layout.logCursor == 0, "the cursor follows the new loop's exchanges")
    }

    private func timeline() -> ReplayTimeline {
        ReplayTimeline(steps: [
            .init(atMilliseconds: 0, message: .stateChanged(.notStarted)),
            .init(atMilliseconds: 1000, message: .stateChanged(.readyToAuthorize(Screens.request()))),
            .init(atMilliseconds: 3000, message: .stateChanged(.polling(Screens.request()))),
        ], startedAt: Screens.start)
    }

    @Test func aReplayPlaysAtItsPaceTimesTheSpeed() throws {
        var director = ReplayDirector(timeline: timeline(), recordedStart: Screens.start, speed: 2)
        var state = try Screens.state()
        let wall = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(director.due(now: wall, state: &state).count == 1)
        #expect(director.due(now: wall.addingTimeInterval(0.4), state: &state).isEmpty)
        #expect(director.due(now: wall.addingTimeInterval(0.5), state: &state).count == 1)
        // The screen's clock is the recording's: 0.5 s of wall time at ×2 is 1 s in.
        #expect(director.clock(at: wall) == Screens.start.addingTimeInterval(1))
        #expect(director.due(now: wall.addingTimeInterval(1.5), state: &state).count == 1)
        #expect(director.finished)
        #expect(state.director?.label.hasPrefix("replay finished") == true)
    }

    @Test func aPausedReplayStepsOneEventAtATime() throws {
        var director = ReplayDirector(timeline: timeline(), recordedStart: Screens.start, speed: 1)
        var state = try Screens.state()
        let wall = Date(timeIntervalSince1970: 2_000_000_000)
        _ = director.due(now: wall, state: &state)
        #expect(director.intercept(.character(" "), state: &state) == nil)
        #expect(director.due(now: wall.addingTimeInterval(30), state: &state).isEmpty)
        #expect(director.intercept(.right, state: &state) == nil)
        #expect(director.due(now: wall.addingTimeInterval(31), state: &state).count == 1)
        #expect(director.due(now: wall.addingTimeInterval(40), state: &state).isEmpty)
        #expect(state.director?.label == "⏸ replay paused · 2/3")
        // Navigation keys still reach the screen; paying does not.
        #expect(director.intercept(.tab, state: &state) == .tab)
        #expect(director.intercept(.character("p"), state: &state) == nil)
        #expect(state.layout.notice?.text.contains("This is a replay") == true)
        _ = director.intercept(.character("+"), state: &state)
        #expect(director.speed == 2)
    }
}
