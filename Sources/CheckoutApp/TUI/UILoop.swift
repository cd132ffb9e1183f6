import Foundation
import PaymentFlow
import TerminalUI

/// The one message loop: input, inbox messages and ticks go through `AppUpdate.update`,
/// commands go out, and the screen is redrawn. Every curses call happens here.
enum UILoop {
    static let inputTimeoutMilliseconds: Int32 = 40

    struct Outcome: Sendable {
        var status: Int32
        var finalAppState: AppState
        var failure: ScreenFailure? = nil
        var finalState: CheckoutState { finalAppState.checkout.state }
    }

    /// Runs the loop on a thread of its own (curses is single-threaded; the cooperative pool
    /// must never wait on the terminal).
    static func runOnItsOwnThread(
        initial: AppState, inbox: Inbox, colors: Bool, mouse: Bool = false, links: any LinkOpener = BrowserLauncher(),
        director: (any ScreenDirector)?, firstFrameDrawn: (@Sendable () -> Void)? = nil, send: @escaping @Sendable (SessionCommand) -> Void
    ) async -> Outcome {
        await onItsOwnThread {
            run(initial: initial, inbox: inbox, colors: colors, mouse: mouse, links: links, director: director, firstFrameDrawn: firstFrameDrawn, send: send)
        }
    }

    /// The same on the terminal `makeTerminal` returns, called on the loop's thread (tests pass an `InMemoryTerminal`).
    static func runOnItsOwnThread(
        initial: AppState, inbox: Inbox, terminal makeTerminal: @escaping @Sendable () -> any TerminalBackend,
        links: any LinkOpener = BrowserLauncher(), director: (any ScreenDirector)?, firstFrameDrawn: (@Sendable () -> Void)? = nil,
        send: @escaping @Sendable (SessionCommand) -> Void
    ) async -> Outcome {
        await onItsOwnThread {
            run(initial: initial, inbox: inbox, terminal: makeTerminal(), links: links, director: director, firstFrameDrawn: firstFrameDrawn, send: send)
        }
    }

    /// On the main thread when `checkout` lends it, else on a thread made for the loop.
    private static func onItsOwnThread(_ body: @escaping @Sendable () -> Outcome) async -> Outcome {
        await withCheckedContinuation { continuation in
            let job: @Sendable () -> Void = { continuation.resume(returning: body()) }
            guard !ThreadLoan.main.lend(job) else { return }
            let thread = Thread(block: job)
            thread.name = "checkout-ui"
            thread.start()
        }
    }

    /// Runs the loop on ncurses, with the ending signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) routed to it, until it ends.
    /// With `mouse`, clicks and the wheel come in where the terminal has a mouse.
    static func run(
        initial: AppState, inbox: Inbox, colors: Bool, mouse: Bool = false, links: any LinkOpener = BrowserLauncher(),
        director: (any ScreenDirector)?, firstFrameDrawn: (@Sendable () -> Void)? = nil, send: (SessionCommand) -> Void
    ) -> Outcome {
        StartupTrace.mark("ui-thread")
        let terminal: NcursesTerminal
        do { terminal = try NcursesTerminal(colors: colors, mouse: mouse) } catch {
            return Outcome(status: 2, finalAppState: initial, failure: .terminal(error))
        }
        TerminalSignals.install()
        inbox.wakes(terminal.waker)
        defer {
            inbox.wakes(nil)
            terminal.close()
            TerminalSignals.uninstall()
        }
        return run(initial: initial, inbox: inbox, terminal: terminal, links: links, director: director, firstFrameDrawn: firstFrameDrawn, send: send)
    }

    /// Input → update → commands → render on `terminal` until the state asks to quit or a signal
    /// comes; closes `terminal` when it returns.
    static func run(
        initial: AppState, inbox: Inbox, terminal: any TerminalBackend, links: any LinkOpener = BrowserLauncher(),
        director: (any ScreenDirector)?, firstFrameDrawn: (@Sendable () -> Void)? = nil, send: (SessionCommand) -> Void
    ) -> Outcome {
        defer { terminal.close() }
        let effects = ScreenEffects(terminal: terminal, inbox: inbox, links: links)
        var director = director
        var state = initial
        (state.layout.width, state.layout.height) = terminal.size
        state.layout.colors = terminal.hasColors
        // The first frame goes out before anything is waited for (input, the session).
        StartupTrace.mark("ncurses")
        let first = CheckoutView.render(state)
        StartupTrace.mark("rendered")
        terminal.draw(first)
        StartupTrace.mark("drawn")
        firstFrameDrawn?()
        while true {
            if let signal = TerminalSignals.takePending() { return Outcome(status: 128 + signal, finalAppState: state) }
            var messages = inbox.drain()
            if let input = terminal.read(timeoutMilliseconds: messages.isEmpty ? inputTimeoutMilliseconds : 0) {
                switch input {
                case .key(let key):
                    if director == nil {
                        messages.append(.key(key))
                    } else if let passed = director?.intercept(key, state: &state) {
                        messages.append(.key(passed))
                    }
                case .resize:
                    let size = terminal.size
                    messages.append(.resized(width: size.width, height: size.height))
                case .mouse(let event):
                    // A replay or demo is played by keys; the mouse stays out of its way.
                    if director == nil { messages.append(.mouse(event)) }
                }
            }
            let wall = Date()
            let due = director?.due(now: wall, state: &state) ?? []
            messages.append(.tick(director?.clock(at: wall) ?? wall))
            messages += due
            for message in messages {
                for command in AppUpdate.update(&state, message) {
                    switch command {
                    case .screen(let effect): effects.perform(effect)
                    case .session(let command): send(command)
                    }
                }
            }
            if let problem = state.startFailure { return Outcome(status: 2, finalAppState: state, failure: .session(problem)) }
            if state.quitRequested { return Outcome(status: 0, finalAppState: state) }
            terminal.draw(CheckoutView.render(state))
        }
    }
}

