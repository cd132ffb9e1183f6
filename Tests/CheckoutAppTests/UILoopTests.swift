@testable import CheckoutApp
import Foundation
import PaymentFlow
import Synchronization
import TerminalUI
import Testing

/// The UI loop itself (input → update → commands → render) on its own thread, with an
/// in-memory terminal in place of ncurses: what the user would see and what goes out.
// Serialized: these tests wait on the loop's thread synchronously, and in parallel they could take
// every cooperative thread the loop's own async entry needs.
@Suite(.serialized) struct UILoopTests {
    @Test(arguments: zip([80, 100], [24, 30]))
    func theFirstFrameShowsTheCartAndTheBanner(width: Int, height: Int) throws {
        let run = try LoopRun(width: width, height: height)
        let first = try run.screen { _ in true }
        #expect(first.width == width && first.height == height)
        #expect(first.text.contains("notStarted"))
        #expect(first.text.contains("House Blend Beans"))
        #expect(first.text.contains("$45.05"))
        #expect(first == CheckoutView.render(try Screens.state(width: width, height: height)))
        #expect(LoopRun.titleStyle("Cart", in: first) == Theme.focusedBorder)
        #expect(LoopRun.titleStyle("Shipping", in: first) == Style.bold)
        try run.quit()
    }

    @Test func theSessionStartingBehindTheFirstFrameNamesItsEndpointWhenUp() throws {
        let run = try LoopRun(width: 100, height: 30)
        _ = try run.screen(containing: "embedded sandbox 127.0.0.1:8080")
        run.inbox.post(.sessionStarted(endpointLabel: "embedded sandbox 127.0.0.1:41234"))
        let started = try run.screen(containing: "embedded sandbox 127.0.0.1:41234")
        #expect(started.text.contains("House Blend Beans"))
        try run.quit()
    }

    @Test func aSessionThatCannotStartEndsTheScreenSayingWhy() throws {
        let run = try LoopRun(width: 100, height: 30)
        _ = try run.screen(containing: "notStarted")
        run.inbox.post(.sessionFailed("could not start the sandbox on 127.0.0.1:0: Address in use"))
        let ended = try #require(run.finish())
        #expect(ended.status == 2)
        #expect(ended.failure?.description == "could not start the sandbox on 127.0.0.1:0: Address in use")
    }

    @Test func tabMovesTheFocusToShipping() throws {
        let run = try LoopRun(width: 100, height: 30)
        _ = try run.screen { _ in true }
        run.terminal.send(keys: [.tab])
        let focused = try run.screen { LoopRun.titleStyle("Shipping", in: $0) == Theme.focusedBorder }
        #expect(LoopRun.titleStyle("Cart", in: focused) == Style.bold)
        try run.quit()
    }

    @Test func questionMarkOpensHelpAndEscapeClosesIt() throws {
        let run = try LoopRun(width: 80, height: 24)
        _ = try run.screen(containing: "notStarted")
        run.terminal.send(keys: [.character("?")])
        let help = try run.screen(containing: "Tab / Shift-Tab")
        #expect(help.text.contains(" Esc close"))
        run.terminal.send(keys: [.escape])
        let closed = try run.screen { !$0.text.contains("Tab / Shift-Tab") }
        #expect(closed.text.contains("? help"))
        #expect(closed.text.contains("House Blend Beans"))
        try run.quit()
    }

    @Test func aTerminalTooSmallSaysSoAndGrowingBackRedraws() throws {
        let run = try LoopRun(width: 100, height: 30)
        _ = try run.screen(containing: "notStarted")
        run.terminal.resize(width: 70, height: 20)
        let small = try run.screen { $0.width == 70 && $0.text.contains("terminal too small") }
        #expect(small.height == 20)
        #expect(small.text.contains("have 70×20"))
        #expect(!small.text.contains("notStarted"))
        run.terminal.resize(width: 100, height: 30)
        let restored = try run.screen { $0.width == 100 && $0.text.contains("notStarted") }
        #expect(restored.height == 30)
        #expect(!restored.text.contains("terminal too small"))
        try run.quit()
    }

    @Test func messagesPostedFromAnotherThreadShowOnTheNextFrames() throws {
        let run = try LoopRun(width: 100, height: 30)
        _ = try run.screen(containing: "notStarted")
        let inbox = run.inbox
        Thread { inbox.post(.customerActionFailed("The simulated customer could not approve: offline")) }.start()
        _ = try run.screen(containing: "could not approve: offline")
        Thread { inbox.post(.stateChanged(.readyToAuthorize(Screens.request()))) }.start()
        let ready = try run.screen(containing: "readyToAuthorize")
        #expect(ready.text.contains(Screens.requestID))
        #expect(!ready.text.contains("notStarted"))
        // A payment in flight: q asks first, y quits.
        run.terminal.send(keys: [.character("q")])
        _ = try run.screen(containing: "Quit anyway?")
        run.terminal.send(keys: [.character("y")])
        #expect(run.finish()?.status == 0)
    }

    @Test func qWithNothingInFlightEndsTheLoopWithStatusZeroAndClosesTheTerminal() throws {
        let run = try LoopRun(width: 80, height: 24)
        _ = try run.screen(containing: "notStarted")
        #expect(!run.terminal.isClosed)
        run.terminal.send(keys: [.character("q")])
        let outcome = try #require(run.finish())
        #expect(outcome.status == 0)
        #expect(outcome.failure == nil)
        #expect(outcome.finalAppState.quitRequested)
        #expect(outcome.finalState == .notStarted)
        #expect(run.terminal.isClosed)
    }

    @Test func payDeliversThePaymentCommandToSend() throws {
        let run = try LoopRun(width: 100, height: 30)
        _ = try run.screen(containing: "notStarted")
        #expect(run.commands.value.isEmpty)
        run.terminal.send(keys: [.character("p")])
        let commands = try #require(
            run.commands.wait(timeout: LoopRun.timeout) { $0.isEmpty ? nil : $0 }, "no command reached send")
        guard case .pay(let order, _)? = commands.first else {
            Issue.record("expected pay, got \(commands)")
            return
        }
        #expect(order.amount.minorUnits == 4505)
        _ = try run.screen { LoopRun.titleStyle("Payment", in: $0) == Theme.focusedBorder }
        try run.quit()
    }

    @Test func theThreadedEntryRunsOnTheTerminalItsFactoryMakes() async throws {
        let terminal = InMemoryTerminal(width: 80, height: 24)
        terminal.send(keys: [.tab, .character("q")])
        let initial = try Screens.state()
        let finished = await LoopRun.result(within: LoopRun.timeout) {
            await UILoop.runOnItsOwnThread(initial: initial, inbox: Inbox(), terminal: { terminal }, director: nil) { _ in }
        }
        guard let outcome = finished else {
            terminal.send(keys: [.control("c")])
            Issue.record("the loop did not end within \(LoopRun.timeout)")
            return
        }
        #expect(outcome.status == 0)
        #expect(outcome.finalAppState.layout.focus == .shipping)
        #expect(terminal.isClosed)
        #expect(terminal.frameCount >= 1)
    }
}

/// The in-memory terminal on its own: queued input, timeouts, frames and waiting across threads.
@Suite struct InMemoryTerminalTests {
    @Test func readReturnsQueuedInputInOrderThenNilOnceTheTimeoutPasses() {
        let terminal = InMemoryTerminal(width: 80, height: 24)
        terminal.send(keys: [.character("a"), .tab])
        terminal.send(.key(.escape))
        #expect(terminal.read(timeoutMilliseconds: 0) == .key(.character("a")))
        #expect(terminal.read(timeoutMilliseconds: 0) == .key(.tab))
        #expect(terminal.read(timeoutMilliseconds: 0) == .key(.escape))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(terminal.read(timeoutMilliseconds: 30) == nil)
        #expect(start.duration(to: clock.now) >= .milliseconds(25))
    }

    @Test func aReadWaitingForInputWakesWhenAnotherThreadSends() {
        let terminal = InMemoryTerminal(width: 80, height: 24)
        let read = Watched<TerminalInput?>(nil)
        Thread { read.update { $0 = terminal.read(timeoutMilliseconds: 10_000) } }.start()
        terminal.send(keys: [.enter])
        #expect(read.wait(timeout: .seconds(5), until: { $0 }) == .key(.enter))
    }

    @Test func resizeChangesTheSizeAndQueuesAResize() {
        let terminal = InMemoryTerminal(width: 100, height: 30, colors: true)
        #expect(terminal.size.width == 100 && terminal.size.height == 30)
        #expect(terminal.hasColors)
        terminal.resize(width: 70, height: 20)
        #expect(terminal.size.width == 70 && terminal.size.height == 20)
        #expect(terminal.read(timeoutMilliseconds: 0) == .resize)
        #expect(terminal.read(timeoutMilliseconds: 0) == nil)
    }

    @Test func drawKeepsTheLastFrameAndCountsThemAndCloseIsRemembered() {
        let terminal = InMemoryTerminal(width: 10, height: 2)
        #expect(terminal.lastScreen == nil)
        #expect(terminal.frameCount == 0)
        var screen = Screen(width: 10, height: 2)
        terminal.draw(screen)
        screen.put("second", x: 0, y: 1)
        terminal.draw(screen)
        #expect(terminal.frameCount == 2)
        #expect(terminal.lastScreen?.text == "\nsecond")
        #expect(!terminal.isClosed)
        terminal.close()
        terminal.close()
        #expect(terminal.isClosed)
    }

    @Test func waitForScreenSeesAFrameAnotherThreadDrawsAndGivesUpOnOneThatNeverComes() {
        let terminal = InMemoryTerminal(width: 20, height: 1)
        Thread {
            var screen = Screen(width: 20, height: 1)
            screen.put("hello there", x: 0, y: 0)
            terminal.draw(screen)
        }.start()
        #expect(terminal.waitForScreen(containing: "hello", timeout: .seconds(5))?.text == "hello there")
        #expect(terminal.waitForScreen(containing: "goodbye", timeout: .milliseconds(20)) == nil)
    }
}

/// The loop on a thread of its own, fed by an `InMemoryTerminal`, recording the commands it sends.
/// A loop left running (a failed test) is stopped with Ctrl-C when the run goes away.
final class LoopRun: Sendable {
    /// Generous: waits end as soon as the loop does; the whole suite beside it can starve two cores.
    static let timeout: Duration = .seconds(120)

    let terminal: InMemoryTerminal
    let inbox = Inbox()
    let commands = Watched<[SessionCommand]>([])
    private let outcome = Watched<UILoop.Outcome?>(nil)

    /// `links` stands in for the browser: no test starts one.
    init(width: Int, height: Int, links: any LinkOpener = RecordingLinkOpener()) throws {
        let initial = try Screens.state()
        let terminal = InMemoryTerminal(width: width, height: height)
        self.terminal = terminal
        let (inbox, commands, outcome) = (inbox, commands, outcome)
        let thread = Thread {
            let ended = UILoop.run(initial: initial, inbox: inbox, terminal: terminal, links: links, director: nil) { command in
                commands.update { $0.append(command) }
            }
            outcome.update { $0 = ended }
        }
        thread.name = "checkout-ui-test"
        thread.start()
    }

    deinit { terminal.send(keys: [.control("c")]) }

    /// The newest frame once it satisfies `condition`; fails the test (with the last frame) when none does in time.
    func screen(sourceLocation: SourceLocation = #_sourceLocation, where condition: (Screen) -> Bool) throws -> Screen {
        let found = terminal.waitForScreen(timeout: Self.timeout, where: condition)
        return try #require(
            found,
            "no such frame within \(Self.timeout); the last one:\n\(terminal.lastScreen?.text ?? "(none drawn)")",
            sourceLocation: sourceLocation)
    }

    func screen(containing text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Screen {
        try screen(sourceLocation: sourceLocation) { $0.text.contains(text) }
    }

    /// How the loop ended; nil (and a recorded issue) when it is still running after the timeout.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) -> UILoop.Outcome? {
        guard let ended = outcome.wait(timeout: Self.timeout, until: { $0 }) else {
            Issue.record("the loop did not end within \(Self.timeout)", sourceLocation: sourceLocation)
            return nil
        }
        return ended
    }

    /// Quits with q and checks the loop ended cleanly.
    func quit(sourceLocation: SourceLocation = #_sourceLocation) throws {
        terminal.send(keys: [.character("q")])
        let ended = try #require(finish(sourceLocation: sourceLocation), sourceLocation: sourceLocation)
        #expect(ended.status == 0, sourceLocation: sourceLocation)
        #expect(terminal.isClosed, sourceLocation: sourceLocation)
    }

    /// What `operation` returns, or nil when it has not returned within `timeout` (it is left
    /// running). A thread of its own keeps the deadline, so a busy cooperative pool cannot delay it.
    static func result<T: Sendable>(within timeout: Duration, of operation: @escaping @Sendable () async -> T) async -> T? {
        let done = Watched(false)
        return await withCheckedContinuation { continuation in
            let first = FirstResult(continuation)
            Task {
                let value = await operation()
                done.update { $0 = true }
                first.resume(value)
            }
            Thread {
                if done.wait(timeout: timeout, until: { $0 ? true : nil }) == nil { first.resume(nil) }
            }.start()
        }
    }

    /// The style of a pane's title (" Title " in its top border), if the pane is drawn.
    static func titleStyle(_ title: String, in screen: Screen) -> Style? {
        for y in 0..<screen.height {
            let row = (0..<screen.width).map { screen[$0, y].character }
            let needle = Array("─ \(title) ")
            guard needle.count <= row.count else { continue }
            for x in 0...(row.count - needle.count) where Array(row[x..<x + needle.count]) == needle {
                return screen[x + 2, y].style
            }
        }
        return nil
    }
}

/// Resumes a continuation with whichever result comes first.
final class FirstResult<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T?, Never>?>

    init(_ continuation: CheckedContinuation<T?, Never>) { self.continuation = Mutex(continuation) }

    func resume(_ value: T?) { continuation.withLock { $0.take() }?.resume(returning: value) }
}

/// A value other threads change, and a test waits on (a condition wait, never a sleep).
final class Watched<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var current: Value

    init(_ value: Value) { current = value }

    var value: Value {
        condition.lock()
        defer { condition.unlock() }
        return current
    }

    func update(_ change: (inout Value) -> Void) {
        condition.lock()
        change(&current)
        condition.broadcast()
        condition.unlock()
    }

    /// The first non-nil `check` of the value, waiting for changes up to `timeout`.
    func wait<Found>(timeout: Duration, until check: (Value) -> Found?) -> Found? {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = check(current) { return found }
            guard condition.wait(until: deadline) else { return check(current) }
        }
    }
}
