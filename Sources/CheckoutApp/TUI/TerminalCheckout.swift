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

    public init(
        session: SessionOptions, colors: Bool, authorizationTimeoutSeconds: Int = 300, scenario: Scenario? = nil,
        recordPath: String? = nil
    ) {
        self.session = session
        self.colors = colors
        self.authorizationTimeoutSeconds = authorizationTimeoutSeconds
        self.scenario = scenario
        self.recordPath = recordPath
    }

    /// The session as started: with the scenario's faults and sandbox timings.
    var effectiveSession: SessionOptions { scenario?.applied(to: session) ?? session }
}

/// The full-screen checkout: wires the payment flow, the HTTP log and the sandbox to the UI
/// loop, which runs on its own thread (curses is single-threaded) and never waits on I/O.
public enum TerminalCheckout {
    /// Runs until the user quits; returns the exit status.
    public static func run(options: TerminalCheckoutOptions, writeError: @escaping @Sendable (String) -> Void) async -> Int32 {
        guard options.terminal != nil || (isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1) else {
            writeError("error: \(TerminalError.notATerminal)")
            return 2
        }
        if let path = options.recordPath {
            do { try Transcript.checkWritable(path) } catch {
                writeError("error: \(error)")
                return ExitStatus.usage.rawValue
            }
        }
        let session: PaymentSession
        // The screen shows the newest exchanges; only a transcript needs them all.
        let kept = options.recordPath == nil ? AppUpdate.logLimit : nil
        do { session = try await PaymentSession.start(options.effectiveSession, keptExchanges: kept) } catch {
            writeError("error: \(error)")
            return 2
        }
        let recorder = options.recordPath == nil ? nil : TranscriptRecorder()
        let outcome = await show(session: session, options: options, recorder: recorder)
        await session.stop()
        if let failure = outcome.failure {
            writeError("error: \(failure)")
            return 2
        }
        if let path = options.recordPath, let recorder {
            let scenario = Scenario.recorded(from: outcome.finalAppState, session: options.effectiveSession)
            let final = outcome.finalAppState
            let settles = final.checkout.provider?.settles ?? session.registry.descriptor(scenario.provider)?.method.settles ?? false
            let status = ExitStatus(final: final.checkout.state, phase: final.checkout.phase, settles: settles)
            let record = recorder.record(
                scenario: scenario, finalState: final.checkout.state.name, finalPhase: final.checkout.phase?.name, exitStatus: status.rawValue)
            do {
                try Transcript.write(
                    Transcript.document(record: record, exchanges: session.http.log.entries, title: "\(scenario.name) (screen)"), to: path)
                writeError("transcript: wrote \(path) (\(session.http.log.entries.count) HTTP exchanges, \(record.events.count) states and phases)")
            } catch {
                writeError("error: \(error)")
                return 2
            }
        }
        if let id = outcome.finalState.createdAttempt?.id, !options.quietEnd {
            writeError("checkout: left in \(outcome.finalState.name) (request \(id))")
        }
        return outcome.status
    }

    /// The payment pane's methods; a toggle the command line (or scenario) already set is
    /// fixed and hidden (`--store`, like the component's `storePaymentMethod`).
    static func paymentMethods(_ registry: ProviderRegistry, options: ProviderOptionValues) -> [PaymentMethod] {
        registry.descriptors.map { descriptor in
            var method = descriptor.method
            if let detail = descriptor.detail(options) { method.detail = detail }
            if let toggle = method.toggle, !toggle.isChoice, options[toggle.flag] != nil { method.toggle = nil }
            return method
        }
    }

    /// Wires the session to a UI loop and runs it until the user quits.
    private static func show(session: PaymentSession, options: TerminalCheckoutOptions, recorder: TranscriptRecorder?) async -> UILoop.Outcome {
        var initial = AppState(
            catalog: session.catalog, endpointLabel: session.endpointLabel, customerSimulated: session.customerSimulated,
            paymentMethods: Self.paymentMethods(session.registry, options: options.effectiveSession.providerOptions), now: Date())
        initial.authorizationTimeoutSeconds = options.authorizationTimeoutSeconds
        // A choice set on the command line (`--locale th_TH`) is where the screen's switch starts.
        for method in initial.paymentMethods {
            if let toggle = method.toggle, toggle.isChoice, let value = options.effectiveSession.providerOptions[toggle.flag], toggle.values.contains(value) {
                initial.toggleChoices[method.id] = value
            }
        }
        if let scenario = options.scenario {
            do { try scenario.load(into: &initial, catalog: session.catalog) } catch {
                return UILoop.Outcome(status: 2, finalAppState: initial, failure: .scenario("scenario \"\(scenario.name)\": \(error)"))
            }
            if options.director == nil {
                initial.inform("Scenario \"\(scenario.name)\" loaded: press p to pay.")
            }
        }
        let inbox = Inbox()
        let observer = InboxObserver(inbox: inbox, recorder: recorder)
        await session.checkout.addObserver(observer)
        let subscription = session.http.log.subscribe { inbox.post(.exchange($0)) }
        let stopNotices = session.notices.subscribe { notice in
            recorder?.record(.notice(notice))
            inbox.post(.notice(notice, at: Date()))
        }
        defer { stopNotices() }
        let stopPrompts = await session.desk.subscribe { inbox.post(.promptChanged($0)) }
        let commands = AsyncStream.makeStream(of: AppCommand.self)
        let savedMethods = session.adapters.compactMapValues { $0 as? any SavedPaymentMethodsAdapter }
        let runner = Task {
            await perform(
                commands.stream, checkout: session.checkout, control: session.customer, savedMethods: savedMethods, inbox: inbox, desk: session.desk)
        }
        recorder?.record(.state(.notStarted))
        let send: @Sendable (AppCommand) -> Void = { commands.continuation.yield($0) }
        // A scenario may open the screen on a provider with saved methods: list them.
        send(.loadSavedMethods(provider: initial.selectedPaymentMethod.id, reason: nil))
        let outcome =
            if let terminal = options.terminal {
                await UILoop.runOnItsOwnThread(initial: initial, inbox: inbox, terminal: terminal, director: options.director, send: send)
            } else {
                await UILoop.runOnItsOwnThread(initial: initial, inbox: inbox, colors: options.colors, director: options.director, send: send)
            }
        commands.continuation.finish()
        runner.cancel()
        subscription.cancel()
        await stopPrompts()
        return outcome
    }

    /// Performs the update function's commands in order, off the UI loop.
    private static func perform(
        _ commands: AsyncStream<AppCommand>, checkout: CheckoutRunner, control: SandboxControlClient?,
        savedMethods: [String: any SavedPaymentMethodsAdapter], inbox: Inbox, desk: CustomerDesk
    ) async {
        for await command in commands {
            switch command {
            case .pay(let order, let provider): await checkout.pay(order, with: provider)
            case .changeOrder(let order): await checkout.changeOrder(order)
            case .authorize: await checkout.authorize()
            case .reset: await checkout.reset()
            case .answerPrompt(let answer, let promptID, let delay):
                guard delay > 0 else {
                    await desk.answer(answer, to: promptID)
                    continue
                }
                Task {
                    try? await Task.sleep(for: .milliseconds(Int(delay * 1000)))
                    await desk.answer(answer, to: promptID)
                }
            case .giveUp(let seconds): await checkout.authorizationTimedOut(seconds: seconds)
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
            case .actAsCustomer(let decision, let id, let delay):
                guard let control else { continue }
                Task {
                    if delay > 0 { try? await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
                    do { try await control.act(decision, on: id) } catch {
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

    var description: String {
        switch self {
        case .terminal(let error): "\(error)"
        case .scenario(let problem): problem
        }
    }
}
