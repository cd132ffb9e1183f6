@testable import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import TerminalUI
import Testing

/// ncurses' mouse reports decoded, and clicks and the wheel through the real update function,
/// aimed at where the rendered frame drew things.
@Suite struct MouseDecodingTests {
    @Test func theLeftButtonAndTheWheelDecodeAtTheirCell() {
        let masks = MouseDecoding.Masks.ncurses6
        #expect(MouseDecoding.decode(buttonState: 0o2, x: 12, y: 7) == MouseEvent(.press, x: 12, y: 7))
        #expect(MouseDecoding.decode(buttonState: 0o1, x: 12, y: 7) == MouseEvent(.release, x: 12, y: 7))
        #expect(MouseDecoding.decode(buttonState: masks.wheelUp, x: 0, y: 0) == MouseEvent(.wheelUp, x: 0, y: 0))
        #expect(MouseDecoding.decode(buttonState: masks.wheelDown, x: 99, y: 29) == MouseEvent(.wheelDown, x: 99, y: 29))
        // ncurses 6's bits: button n's "pressed" is bit 1 of its five; the wheel is buttons 4 and 5.
        #expect(masks.wheelUp == 0x10000 && masks.wheelDown == 0x200000)
    }

    /// `getmouse` hands out a read's reports newest first; the screen gets them oldest first, a
    /// press before its release, and drops only what is nothing.
    @Test func reportsReadTogetherComeOutOldestFirst() {
        let newestFirst = [
            MouseDecoding.Report(buttonState: 0o1, x: 4, y: 9), MouseDecoding.Report(buttonState: 0o2 << 5, x: 4, y: 9),
            MouseDecoding.Report(buttonState: 0o2, x: 4, y: 9), MouseDecoding.Report(buttonState: MouseDecoding.Masks.ncurses6.wheelUp, x: 1, y: 2),
        ]
        #expect(
            MouseDecoding.decode(newestFirst: newestFirst) == [
                MouseEvent(.wheelUp, x: 1, y: 2), MouseEvent(.press, x: 4, y: 9), MouseEvent(.release, x: 4, y: 9),
            ])
        #expect(MouseDecoding.decode(newestFirst: []).isEmpty)
    }

    @Test func otherButtonsAndCellsOffTheScreenAreNothing() {
        // Button 2 and 3 pressed, a bare modifier bit, and no bits at all.
        for state: UInt in [0o2 << 5, 0o2 << 10, 1 << 25, 0] {
            #expect(MouseDecoding.decode(buttonState: state, x: 1, y: 1) == nil)
        }
        #expect(MouseDecoding.decode(buttonState: 0o2, x: -1, y: 3) == nil)
        #expect(MouseDecoding.decode(buttonState: 0o2, x: 3, y: -1) == nil)
    }

    @Test func theMasksNcursesDefinesAreTheOnesDecoded() {
        let custom = MouseDecoding.Masks(leftPressed: 1 << 3, leftReleased: 1 << 4, wheelUp: 1 << 5, wheelDown: 1 << 6)
        #expect(MouseDecoding.decode(buttonState: 1 << 3, x: 2, y: 2, masks: custom)?.action == .press)
        #expect(MouseDecoding.decode(buttonState: 1 << 6, x: 2, y: 2, masks: custom)?.action == .wheelDown)
        #expect(MouseDecoding.decode(buttonState: 0o2, x: 2, y: 2, masks: custom) == nil)
    }
}

@Suite struct MouseActionTests {
    /// The cell where `text` starts on the rendered frame.
    static func cell(of text: String, in state: AppState, sourceLocation: SourceLocation = #_sourceLocation) throws -> (x: Int, y: Int) {
        let screen = CheckoutView.render(state)
        let lines = screen.text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let needle = Array(text)
        var found: (x: Int, y: Int)?
        for (y, line) in lines.enumerated() where found == nil && line.count >= needle.count {
            found = (0...(line.count - needle.count)).first { Array(line[$0..<$0 + needle.count]) == needle }.map { ($0, y) }
        }
        return try #require(found, "\"\(text)\" is not on the screen:\n\(screen.text)", sourceLocation: sourceLocation)
    }

    static func click(_ text: String, in state: inout AppState) throws -> [AppCommand] {
        let (x, y) = try cell(of: text, in: state)
        return Screens.apply([.mouse(MouseEvent(.press, x: x, y: y)), .mouse(MouseEvent(.release, x: x, y: y))], to: &state)
    }

    static func wheel(_ action: MouseEvent.Action, over text: String, times: Int = 1, in state: inout AppState) throws {
        let (x, y) = try cell(of: text, in: state)
        _ = Screens.apply(Array(repeating: .mouse(MouseEvent(action, x: x, y: y)), count: times), to: &state)
    }

    @Test(arguments: zip([100, 80], [30, 24]))
    func aClickOnAPaneFocusesItAndOnARowSelectsIt(width: Int, height: Int) throws {
        var state = try Screens.state(width: width, height: height)
        #expect(state.layout.focus == .cart)
        _ = try Self.click("Overnight", in: &state)
        #expect(state.layout.focus == .shipping)
        #expect(state.layout.shippingCursor == 2)
        // Only the cursor moved: the chosen method is still the free one.
        #expect(state.cart.selectedShippingID == state.cart.shippingMethods[0].id)

        _ = try Self.click("Enamel Camp Mug", in: &state)
        #expect(state.layout.focus == .cart && state.layout.cartCursor == 1)

        _ = try Self.click("( ) Cash App Pay (Afterpay)", in: &state)
        #expect(state.layout.focus == .payment && state.layout.paymentCursor == 1)
        #expect(state.selectedPaymentIndex == 0)

        _ = try Self.click("HTTP log", in: &state)
        #expect(state.layout.focus == .log)
    }

    @Test func aSecondClickOnTheSelectedMethodChoosesItAsEnterDoes() throws {
        var state = try Screens.state()
        _ = try Self.click("Express Shipping", in: &state)
        #expect(state.cart.selectedShippingID == state.cart.shippingMethods[0].id)
        _ = try Self.click("Express Shipping", in: &state)
        #expect(state.cart.selectedShippingID == state.cart.shippingMethods[1].id)
        #expect(CheckoutView.render(state).text.contains("(•) Express Shipping"))

        _ = try Self.click("( ) Cash App Pay (Afterpay)", in: &state)
        let commands = try Self.click("( ) Cash App Pay (Afterpay)", in: &state)
        #expect(state.selectedPaymentMethod.id == "afterpay")
        #expect(commands == [.loadSavedMethods(provider: "afterpay", reason: nil)])
    }

    @Test func aClickNeverPaysEvenWhereEnterWouldAuthorize() throws {
        var state = try Screens.state()
        _ = Screens.apply(Screens.created + [.key(.character("v"))], to: &state)
        _ = try Self.click("(•) Cash App Pay", in: &state)
        let commands = try Self.click("(•) Cash App Pay", in: &state)
        #expect(commands.isEmpty)
        #expect(state.layout.focus == .payment)
        #expect(state.checkout.state.name == "readyToAuthorize")
    }

    @Test func clickingAnExchangeSelectsItAndAgainOpensIt() throws {
        var state = try Screens.state()
        _ = Screens.apply(Screens.polling + [.key(.character("v"))], to: &state)
        let first = "POST  /customer-request/v1/requests "
        _ = try Self.click(first, in: &state)
        #expect(state.layout.focus == .log && state.layout.logCursor == 0)
        #expect(state.layout.overlay == nil)
        _ = try Self.click(first, in: &state)
        #expect(state.layout.overlay == .httpDetail(exchangeID: 1, scroll: 0))
    }

    private func withLongLog(_ count: Int) throws -> AppState {
        var state = try Screens.state()
        for id in 0..<count {
            _ = Screens.apply([.exchange(Screens.exchange(id, "GET", "/log/entry-\(id)", status: 200, milliseconds: 1))], to: &state)
        }
        return state
    }

    @Test func theWheelScrollsTheLogAndBackDownToTheNewest() throws {
        var state = try withLongLog(40)
        let before = CheckoutView.render(state).text
        #expect(before.contains("/log/entry-39 ") && !before.contains("/log/entry-20 "))
        try Self.wheel(.wheelUp, over: "/log/entry-39 ", times: 6, in: &state)
        #expect(state.layout.focus == .log)
        #expect(state.layout.logCursor == 39 - 6 * MouseActions.wheelRows)
        let scrolled = CheckoutView.render(state).text
        #expect(scrolled.contains("/log/entry-21 ") && !scrolled.contains("/log/entry-39 "))
        try Self.wheel(.wheelDown, over: "/log/entry-21 ", times: 10, in: &state)
        #expect(state.layout.logCursor == 39)
        // Back at the newest, the log follows new exchanges again.
        _ = Screens.apply([.exchange(Screens.exchange(40, "GET", "/log/entry-40", status: 200, milliseconds: 1))], to: &state)
        #expect(CheckoutView.render(state).text.contains("/log/entry-40 "))
    }

    @Test func theWheelScrollsAnOpenExchangeWithinItsText() throws {
        var state = try Screens.state(width: 80, height: 24)
        _ = Screens.apply(Screens.created + [.key(.tab), .key(.tab), .key(.tab), .key(.enter)], to: &state)
        let last = HTTPDetailView.lastTop(state, exchangeID: 1)
        #expect(last > 0)
        _ = Screens.apply([.mouse(MouseEvent(.wheelDown, x: 10, y: 10))], to: &state)
        #expect(state.layout.overlay == .httpDetail(exchangeID: 1, scroll: min(last, MouseActions.wheelRows)))
        _ = Screens.apply(Array(repeating: .mouse(MouseEvent(.wheelDown, x: 10, y: 10)), count: 50), to: &state)
        #expect(state.layout.overlay == .httpDetail(exchangeID: 1, scroll: last))
        // Back up from the end at once, however far the wheel went.
        _ = Screens.apply([.mouse(MouseEvent(.wheelUp, x: 10, y: 10))], to: &state)
        #expect(state.layout.overlay == .httpDetail(exchangeID: 1, scroll: max(0, last - MouseActions.wheelRows)))
    }

    @Test func overlaysAndPromptsKeepThePanesFromClicks() throws {
        var state = try Screens.state()
        let overnight = try Self.cell(of: "Overnight", in: state)
        _ = Screens.apply([.key(.character("?"))], to: &state)
        _ = Screens.apply([.mouse(MouseEvent(.press, x: overnight.x, y: overnight.y))], to: &state)
        // The click closed the help and went no further.
        #expect(state.layout.overlay == nil && state.layout.focus == .cart)

        _ = Screens.apply([.key(.character("n"))], to: &state)
        _ = Screens.apply([.mouse(MouseEvent(.press, x: overnight.x, y: overnight.y))], to: &state)
        #expect(state.layout.overlay == .addProduct(cursor: 0) && state.layout.focus == .cart)
    }

    @Test func aTooSmallTerminalOrAnEmptyCellIgnoresClicks() throws {
        var state = try Screens.state(width: 70, height: 20)
        _ = Screens.apply([.mouse(MouseEvent(.press, x: 30, y: 10)), .mouse(MouseEvent(.wheelUp, x: 30, y: 10))], to: &state)
        #expect(state.layout == (try Screens.state(width: 70, height: 20)).layout)
        var full = try Screens.state()
        // The title bar and the hints line are no pane.
        _ = Screens.apply([.mouse(MouseEvent(.press, x: 5, y: 0)), .mouse(MouseEvent(.press, x: 5, y: 29))], to: &full)
        #expect(full.layout.focus == .cart)
    }
}

/// A director that lets every key through and plays nothing.
private struct PassingDirector: ScreenDirector {
    mutating func due(now: Date, state: inout AppState) -> [AppMessage] { [] }
    mutating func intercept(_ key: Key, state: inout AppState) -> Key? { key }
}

@Suite(.serialized) struct MouseLoopTests {
    private func run(_ input: [TerminalInput], director: (any ScreenDirector)?) async throws -> AppState {
        let terminal = InMemoryTerminal(width: 100, height: 30)
        let initial = try Screens.state()
        let overnight = try MouseActionTests.cell(of: "Overnight", in: initial)
        terminal.send(.mouse(MouseEvent(.press, x: overnight.x, y: overnight.y)))
        for item in input { terminal.send(item) }
        terminal.send(keys: [.character("q")])
        let outcome = await LoopRun.result(within: LoopRun.timeout) {
            await UILoop.runOnItsOwnThread(initial: initial, inbox: Inbox(), terminal: { terminal }, links: RecordingLinkOpener(), director: director) { _ in }
        }
        return try #require(outcome, "the loop did not end").finalAppState
    }

    @Test func theLoopPassesClicksOnButADirectorsScreenIgnoresThem() async throws {
        let clicked = try await run([], director: nil)
        #expect(clicked.layout.focus == .shipping && clicked.layout.shippingCursor == 2)
        let directed = try await run([], director: PassingDirector())
        #expect(directed.layout.focus == .cart && directed.layout.shippingCursor == 0)
    }
}
