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

    public init(session: SessionOptions, colors: Bool, authorizationTimeoutSeconds: Int = 300) {
        self.session = session
        self.colors = colors
        self.authorizationTimeoutSeconds = authorizationTimeoutSeconds
    }
}

/// The full-screen checkout: wires the payment flow, the HTTP log and the sandbox to the UI
/// loop, which runs on its own thread (curses is single-threaded) and never waits on I/O.
public enum TerminalCheckout {
    /// Runs until the user quits; returns the exit status.
    public static func run(options: TerminalCheckoutOptions, writeError: @escaping @Sendable (String) -> Void) async -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            writeError("error: \(TerminalError.notATerminal)")
            return 2
        }
        let session: PaymentSession
        do { session = try await PaymentSession.start(options.session) } catch {
            writeError("error: \(error)")
            return 2
        }
        let outcome = await show(session: session, options: options)
        await session.stop()
        if let failure = outcome.failure {
            writeError("error: \(failure)")
            return 2
        }
        if let request = outcome.finalState.request {
            writeError("checkout: left in \(outcome.finalState.name) (request \(request.id))")
        }
        return outcome.status
    }

    /// Wires the session to a UI loop and runs it until the user quits.
    private static func show(session: PaymentSession, options: TerminalCheckoutOptions) async -> UILoop.Outcome {
        let inbox = Inbox()
        let observer = InboxObserver(inbox: inbox)
        await session.pay.addObserver(observer)
        let subscription = session.http.log.subscribe { inbox.post(.exchange($0)) }
        let commands = AsyncStream.makeStream(of: AppCommand.self)
        let afterpay = AfterpayFlow(afterpay: session.afterpay, pay: session.pay) { inbox.post(.phaseChanged($0)) }
        let runner = Task { await perform(commands.stream, pay: session.pay, afterpay: afterpay, control: session.customer, inbox: inbox) }
        var initial = AppState(
            catalog: session.catalog, endpointLabel: session.endpointLabel, customerSimulated: session.customer != nil,
            brandID: session.configuration.brandID, now: Date())
        initial.authorizationTimeoutSeconds = options.authorizationTimeoutSeconds
        let outcome = await runLoopOnItsOwnThread(initial: initial, inbox: inbox, colors: options.colors) {
            commands.continuation.yield($0)
        }
        commands.continuation.finish()
        runner.cancel()
        subscription.cancel()
        return outcome
    }

    private static func perform(
        _ commands: AsyncStream<AppCommand>, pay: CashAppPay, afterpay: AfterpayFlow, control: SandboxControlClient?, inbox: Inbox
    ) async {
        for await command in commands {
            switch command {
            case .createRequest(let params): await pay.createCustomerRequest(params: params)
            case .beginAfterpay(let checkout): Task { await afterpay.begin(checkout) }
            case .updateAfterpay(let checkout): Task { await afterpay.update(checkout) }
            case .settleAfterpay(let request, let grants): Task { await afterpay.settle(request: request, grants: grants) }
            case .updateRequest(let params): await pay.updateCustomerRequest(with: params)
            case .authorize: await pay.authorizeCustomerRequest()
            case .reset: await pay.reset()
            case .giveUp(let seconds): await pay.authorizationTimedOut(seconds: seconds)
            case .actAsCustomer(let decision, let id):
                guard let control else { continue }
                Task {
                    do { _ = try await control.customer(decision, requestID: id) } catch {
                        inbox.post(.customerActionFailed("The simulated customer could not \(decision.rawValue): \(error)"))
                    }
                }
            }
        }
    }

    private static func runLoopOnItsOwnThread(
        initial: AppState, inbox: Inbox, colors: Bool, send: @escaping @Sendable (AppCommand) -> Void
    ) async -> UILoop.Outcome {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: UILoop.run(initial: initial, inbox: inbox, colors: colors, send: send))
            }
            thread.name = "checkout-ui"
            thread.start()
        }
    }
}

/// The one message loop: input, inbox messages and ticks go through `AppUpdate.update`,
/// commands go out, and the screen is redrawn. Every curses call happens here.
enum UILoop {
    static let inputTimeoutMilliseconds: Int32 = 40

    struct Outcome: Sendable {
        var status: Int32
        var finalState: CashAppPayState
        var failure: TerminalError? = nil
    }

    static func run(initial: AppState, inbox: Inbox, colors: Bool, send: (AppCommand) -> Void) -> Outcome {
        let terminal: NcursesTerminal
        do { terminal = try NcursesTerminal(colors: colors) } catch {
            return Outcome(status: 2, finalState: initial.payState, failure: error)
        }
        TerminalSignals.install()
        defer {
            terminal.close()
            TerminalSignals.uninstall()
        }
        var state = initial
        (state.width, state.height) = terminal.size
        while true {
            if let signal = TerminalSignals.takePending() { return Outcome(status: 128 + signal, finalState: state.payState) }
            var messages = inbox.drain()
            if let input = terminal.read(timeoutMilliseconds: messages.isEmpty ? inputTimeoutMilliseconds : 0) {
                switch input {
                case .key(let key): messages.append(.key(key))
                case .resize:
                    let size = terminal.size
                    messages.append(.resized(width: size.width, height: size.height))
                }
            }
            messages.append(.tick(Date()))
            for message in messages {
                for command in AppUpdate.update(&state, message) { send(command) }
            }
            if state.quitRequested { return Outcome(status: 0, finalState: state.payState) }
            terminal.draw(CheckoutView.render(state))
        }
    }
}
