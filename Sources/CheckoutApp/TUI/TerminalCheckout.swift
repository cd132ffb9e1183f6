import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import Sandbox
import TerminalUI

/// Options for the full-screen checkout.
public struct TerminalCheckoutOptions: Sendable {
    public var session: SessionOptions
    public var colors: Bool
    public var authorizationTimeoutSeconds: Int
    /// Open with this scenario's cart, provider, faults and customer.
    public var scenario: Scenario?
    /// Write a HAR transcript of the session here on quitting.
    public var recordPath: String?
    /// Plays a scripted checkout (demo mode) alongside the user.
    var director: (any ScreenDirector)?
    /// No "left in approved" line on quitting (the demo's checkouts are not the user's).
    var quietEnd = false
    /// Draw on this terminal instead of ncurses on the process's own (tests pass an `InMemoryTerminal`).
    var terminal: (@Sendable () -> any TerminalBackend)?
    /// Clicks and the wheel, where the terminal has a mouse (`--no-mouse` leaves it to the terminal's own selection).
    public var mouse = true
    /// What `o` opens links with (tests pass one that starts no browser).
    var links: any LinkOpener = BrowserLauncher()

    /// More cart lines and log entries to open with (`--bench-load`).
    public var benchLoad: BenchLoad?

    public init(
        session: SessionOptions, colors: Bool, authorizationTimeoutSeconds: Int = 300, scenario: Scenario? = nil,
        recordPath: String? = nil, benchLoad: BenchLoad? = nil
    ) {
        self.benchLoad = benchLoad
        self.session = session
        self.colors = colors
        self.authorizationTimeoutSeconds = authorizationTimeoutSeconds
        self.scenario = scenario
        self.recordPath = recordPath
    }

    /// `checkout` with no arguments (the providers' options and environment aside): the screen
    /// with every flag at its default, built without the argument parser, whose reflection over
    /// every flag is a fifth of the time to the first frame. Nil when the providers' options are
    /// unusable, so the parser (which validates the same way) says why.
    public static func defaults(providerOptions: ProviderOptionValues, environment: [String: String]) -> TerminalCheckoutOptions? {
        let registry = ProviderRegistry.builtIn
        let session = SessionOptions(
            registry: registry, providerOptions: providerOptions.withEnvironment(environment, options: registry.options),
            retryBaseDelay: .milliseconds(SessionOptions.Defaults.retryBaseMilliseconds),
            triggerRotationSeconds: SessionOptions.Defaults.triggerRotationSeconds,
            requestLifetimeSeconds: SessionOptions.Defaults.requestLifetimeSeconds)
        guard session.problem == nil else { return nil }
        return TerminalCheckoutOptions(
            session: session, colors: (environment["NO_COLOR"] ?? "").isEmpty,
            authorizationTimeoutSeconds: SessionOptions.Defaults.authorizationTimeoutSeconds)
    }

    /// The session as started: with the scenario's faults and sandbox timings.
    var effectiveSession: SessionOptions { scenario?.applied(to: session) ?? session }
}

/// The full-screen checkout: wires the payment flow, the HTTP log and the sandbox to the UI
/// loop, which runs on its own thread (curses is single-threaded) and never waits on I/O.
public enum TerminalCheckout {
    /// Runs until the user quits; returns the exit status.
    public static func run(options: TerminalCheckoutOptions, writeError: @escaping @Sendable (String) -> Void) async -> Int32 {
        // The synchronous parts live in helpers: error handling inline here crashes the Swift 6.3
        // optimizer (coroutine splitting of this function).
        let prepared = prepare(options, writeError: writeError)
        guard let catalog = prepared.catalog else { return prepared.failureStatus }
        StartupTrace.mark("catalog")
        let recorder = options.recordPath == nil ? nil : TranscriptRecorder()
        let (outcome, started) = await show(catalog: catalog, options: options, recorder: recorder)
        await started?.stop()
        return finish(outcome, session: started, options: options, recorder: recorder, writeError: writeError)
    }

    /// Checks the terminal and the transcript's path and loads the catalog; no catalog (said
    /// why, with the exit status) when one fails.
    private static func prepare(_ options: TerminalCheckoutOptions, writeError: (String) -> Void) -> (catalog: Catalog?, failureStatus: Int32) {
        guard options.terminal != nil || (isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1) else {
            writeError("error: \(TerminalError.notATerminal)")
            return (nil, 2)
        }
        if let path = options.recordPath {
            do { try Transcript.checkWritable(path) } catch {
                writeError("error: \(error)")
                return (nil, ExitStatus.usage.rawValue)
            }
        }
        do { return (try Catalog.bundled(currency: options.effectiveSession.currency), 0) } catch {
            writeError("error: \(error)")
            return (nil, 2)
        }
    }

    /// Writes the transcript and the closing line; the exit status.
    private static func finish(
        _ outcome: UILoop.Outcome, session started: PaymentSession?, options: TerminalCheckoutOptions, recorder: TranscriptRecorder?,
        writeError: (String) -> Void
    ) -> Int32 {
        if let failure = outcome.failure {
            writeError("error: \(failure)")
            return 2
        }
        // Quit before the session was up: nothing was sent, nothing to record.
        guard let session = started else { return outcome.status }
        if let path = options.recordPath, let recorder {
            let scenario = Scenario.recorded(from: outcome.finalAppState, session: options.effectiveSession)
            let final = outcome.finalAppState.checkout
            let settles = final.provider?.settles ?? session.registry.descriptor(scenario.provider)?.method.settles ?? false
            let written = recorder.write(
                to: path, scenario: scenario, title: "\(scenario.name) (screen)", final: final.state, phase: final.phase,
                status: ExitStatus(final: final.state, phase: final.phase, settles: settles), exchanges: session.http.log.entries, say: writeError)
            if !written { return 2 }
        }
        // A request made on load and never authorized was never the customer's: nothing to say.
        if let id = outcome.finalState.createdAttempt?.id, !options.quietEnd, !outcome.finalAppState.checkout.untouchedOnLoad {
            writeError("checkout: left in \(outcome.finalState.name) (request \(id))")
        }
        return outcome.status
    }

    /// The payment pane's methods; a toggle the command line (or scenario) already set is
    /// fixed and hidden (`--store`, like the component's `storePaymentMethod`).
    static func paymentMethods(_ registry: ProviderRegistry, options: ProviderOptionValues) -> [PaymentMethod] {
        registry.descriptors.map { descriptor in
            var method = descriptor.method
            descriptor.screenMethod(options, &method)
            if let detail = descriptor.detail(options) { method.detail = detail }
            if let toggle = method.toggle, !toggle.isChoice, options[toggle.flag] != nil { method.toggle = nil }
            if !descriptor.showsToggle(options) { method.toggle = nil }
            return method
        }
    }

    /// Draws the first frame at once and starts the session (the embedded sandbox, the
    /// providers' clients) behind it; wires it to the UI loop when it is up. Runs until the user
    /// quits; the session is nil when it could not start (the outcome says why).
    private static func show(catalog: Catalog, options: TerminalCheckoutOptions, recorder: TranscriptRecorder?) async -> (UILoop.Outcome, PaymentSession?) {
        let sessionOptions = options.effectiveSession
        var initial = AppState(
            catalog: catalog, endpointLabel: sessionOptions.usesEmbeddedSandbox ? "starting sandbox…" : "connecting…",
            customerSimulated: sessionOptions.usesEmbeddedSandbox || sessionOptions.sandboxURL != nil,
            paymentMethods: Self.paymentMethods(sessionOptions.registry, options: sessionOptions.providerOptions), now: Date())
        // A replay or the demo plays its own keys: nothing is created behind its back.
        if options.director != nil { for index in initial.paymentMethods.indices { initial.paymentMethods[index].createsOnLoad = false } }
        initial.authorizationTimeoutSeconds = options.authorizationTimeoutSeconds
        // A choice set on the command line (`--locale th_TH`) is where the screen's switch starts.
        for method in initial.paymentMethods {
            if let toggle = method.toggle, toggle.isChoice, let value = sessionOptions.providerOptions[toggle.flag], toggle.values.contains(value) {
                initial.toggleChoices[method.id] = value
            }
        }
        if let scenario = options.scenario {
            do { try scenario.load(into: &initial, catalog: catalog) } catch {
                return (UILoop.Outcome(status: 2, finalAppState: initial, failure: .scenario("scenario \"\(scenario.name)\": \(error)")), nil)
            }
            if options.director == nil {
                initial.inform("Scenario \"\(scenario.name)\" loaded: press p to pay.")
            }
        }
        options.benchLoad?.apply(to: &initial)
        let inbox = Inbox()
        let commands = AsyncStream.makeStream(of: SessionCommand.self)
        let send: @Sendable (SessionCommand) -> Void = { commands.continuation.yield($0) }
        // A scenario may open the screen on a provider with saved methods: list them (once the session is up).
        send(.loadSavedMethods(provider: initial.selectedPaymentMethod.id, reason: nil))
        // The screen keeps its own log (AppState.exchanges); only a transcript needs the client's.
        let kept = options.recordPath == nil ? 1 : nil
        // The session starts once the first frame is out, so it does not take the cores from it.
        let (drawn, frameOut) = AsyncStream.makeStream(of: Void.self)
        let firstFrameDrawn: @Sendable () -> Void = { frameOut.finish() }
        let background = Task { () -> PaymentSession? in
            for await _ in drawn {}
            let session: PaymentSession
            do { session = try await PaymentSession.start(sessionOptions, keptExchanges: kept, catalog: catalog) } catch {
                inbox.post(.sessionFailed(String(describing: error)))
                return nil
            }
            await serve(session, commands: commands.stream, inbox: inbox, recorder: recorder)
            return session
        }
        let outcome =
            if let terminal = options.terminal {
                await UILoop.runOnItsOwnThread(
                    initial: initial, inbox: inbox, terminal: terminal, links: options.links, director: options.director,
                    firstFrameDrawn: firstFrameDrawn, send: send)
            } else {
                // A demo is played by keys: the mouse stays with the terminal.
                await UILoop.runOnItsOwnThread(
                    initial: initial, inbox: inbox, colors: options.colors, mouse: options.mouse && options.director == nil, links: options.links,
                    director: options.director, firstFrameDrawn: firstFrameDrawn, send: send)
            }
        // A terminal that could not start never drew: the session is not wanted either.
        frameOut.finish()
        commands.continuation.finish()
        background.cancel()
        return (outcome, await background.value)
    }

    /// Wires a started session to the screen (its states, exchanges, notices and prompts come in
    /// as messages) and performs the screen's commands until the screen ends.
    private static func serve(_ session: PaymentSession, commands: AsyncStream<SessionCommand>, inbox: Inbox, recorder: TranscriptRecorder?) async {
        let observer = InboxObserver(inbox: inbox, recorder: recorder)
        await session.checkout.addObserver(observer)
        let subscription = session.http.log.subscribe { inbox.post(.exchange($0)) }
        let stopNotices = session.notices.subscribe { notice in
            recorder?.record(.notice(notice))
            inbox.post(.notice(notice, at: Date()))
        }
        let stopPrompts = await session.desk.subscribe { inbox.post(.promptChanged($0)) }
        recorder?.record(.state(.notStarted))
        inbox.post(.sessionStarted(endpointLabel: session.endpointLabel))
        let savedMethods = session.adapters.compactMapValues { $0.savedMethodsAdapter }
        let health = session.adapters.compactMapValues { $0.healthCheck }
        await perform(
            commands, checkout: session.checkout, control: session.customer, savedMethods: savedMethods, health: health, inbox: inbox, desk: session.desk)
        stopNotices()
        subscription.cancel()
        await stopPrompts()
    }

    /// Performs the session's commands in order, off the UI loop.
    private static func perform(
        _ commands: AsyncStream<SessionCommand>, checkout: CheckoutRunner, control: SandboxControlClient?,
        savedMethods: [String: any SavedPaymentMethodsAdapter], health: [String: any ProviderHealthCheck], inbox: Inbox, desk: CustomerDesk
    ) async {
        for await command in commands {
            switch command {
            case .pay(let order, let provider): await checkout.pay(order, with: provider)
            case .changeOrder(let order): await checkout.changeOrder(order)
            case .authorize: await checkout.authorize()
            case .retrieveAfterCustomerActs: await checkout.retrieveAfterCustomerActs()
            case .reset: await checkout.reset()
            case .answerPrompt(let answer, let promptID): await desk.answer(answer, to: promptID)
            case .wait(let timer, let seconds):
                Task {
                    try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                    inbox.post(.driverTimer(timer))
                }
            case .giveUp(let seconds): await checkout.authorizationTimedOut(seconds: seconds)
            case .checkHealth(let provider):
                guard let check = health[provider] else {
                    inbox.post(.healthChecked(provider: provider, healthy: nil))
                    continue
                }
                Task { inbox.post(.healthChecked(provider: provider, healthy: await check.healthy())) }
            case .loadSavedMethods(let provider, let reason):
                guard let adapter = savedMethods[provider] else { continue }
                Task {
                    do throws(ProviderFailure) {
                        inbox.post(.savedMethodsLoaded(provider: provider, try await adapter.savedMethods(), reason: reason))
                    } catch {
                        inbox.post(.savedMethodsFailed("The saved methods could not be listed: \(error.code) \(error.detail ?? "")"))
                    }
                }
            case .deleteSavedMethod(let method):
                guard let adapter = savedMethods[method.provider] else { continue }
                Task {
                    do throws(ProviderFailure) {
                        try await adapter.deleteSavedMethod(id: method.id)
                        inbox.post(.savedMethodDeleted(method))
                    } catch {
                        inbox.post(.savedMethodsFailed("\(method.label) could not be deleted: \(error.code) \(error.detail ?? "")"))
                    }
                }
            case .actAsCustomer(let decision, let id):
                // Only a sandbox has a simulated customer; the screen offers it only there.
                guard let control else { continue }
                Task {
                    do { try await control.act(decision, on: id, nudging: checkout) } catch {
                        inbox.post(.customerActionFailed("The simulated customer could not \(decision.rawValue): \(error)"))
                    }
                }
            }
        }
    }
}

/// Why the screen could not run.
enum ScreenFailure: Error, CustomStringConvertible {
    case terminal(TerminalError)
    case scenario(String)
    /// The session (the embedded sandbox, say) could not start.
    case session(String)

    var description: String {
        switch self {
        case .terminal(let error): "\(error)"
        case .scenario(let problem): problem
        case .session(let problem): problem
        }
    }
}
