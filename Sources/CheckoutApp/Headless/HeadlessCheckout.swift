import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import Sandbox
import Synchronization
import TerminalUI

/// `checkout run`: one checkout of a scenario (by default the catalog's cart, approved), start to
/// decision, printing a line per state. Returns the exit status.
public struct HeadlessCheckout: Sendable {
    public let options: HeadlessOptions
    private let write: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void

    public init(
        options: HeadlessOptions,
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void
    ) {
        self.options = options
        self.write = write
        self.writeError = writeError
    }

    public func run() async -> ExitStatus {
        await runCheckout().status
    }

    /// What a run came to, for `run --replay`'s comparison.
    public struct Outcome: Sendable {
        public var status: ExitStatus
        public var events: [RecordedEvent]
    }

    /// Runs the scenario to its end, printing a line per state; writes the transcript when asked.
    public func runCheckout() async -> Outcome {
        let scenario = options.scenario
        if let path = options.recordPath {
            do { try Transcript.checkWritable(path) } catch {
                writeError("error: \(error)")
                return Outcome(status: .usage, events: [])
            }
        }
        let recorder = TranscriptRecorder()
        let session: PaymentSession
        do { session = try await PaymentSession.start(scenario.applied(to: options.session)) } catch {
            writeError("error: \(error)")
            return Outcome(status: .failed, events: [])
        }
        // Ctrl-C, a kill or a closed terminal still writes the transcript asked for and removes
        // this run's faults from a shared sandbox.
        let progress = RunProgress()
        let signals = await SignalCleanup.install { [self] signal in
            writeError("interrupted: \(TerminalSignals.name(of: signal)) (last state \(progress.latest.state.name))")
            if let path = options.recordPath {
                let (final, phase) = progress.latest
                let summary = "interrupted by \(TerminalSignals.name(of: signal)) after "
                    + "\(Self.seconds(recorder.elapsedMilliseconds)) s in \(phase.map { "\(final.name), \($0.name)" } ?? final.name)"
                let status = ExitStatus(final: final, phase: phase, settles: progress.settles)
                _ = writeTranscript(to: path, recorder: recorder, session: session, final: final, phase: phase, status: status, summary: summary)
            }
            await session.stop()
        }
        StartupTrace.mark("drive")
        let outcome = await drive(session, recorder: recorder, progress: progress)
        StartupTrace.mark("driven")
        signals.cancel()
        await session.stop()
        StartupTrace.mark("stopped")
        return outcome
    }

    /// Pays for the scenario's order and follows the checkout to its end.
    private func drive(_ session: PaymentSession, recorder: TranscriptRecorder, progress: RunProgress) async -> Outcome {
        let scenario = options.scenario
        let (http, checkout, customer) = (session.http, session.checkout, session.customer)
        let retries = options.json ? nil : http.log.subscribe { [writeError] exchange in
            if let failure = exchange.failure { writeError("http: \(exchange.method) \(exchange.path) attempt \(exchange.attempt) failed: \(failure)") }
        }
        defer { retries?.cancel() }
        guard let provider = session.registry.descriptor(scenario.provider) else {
            writeError("error: scenario \"\(scenario.name)\": \(UnknownProvider(spelling: scenario.provider, known: session.registry.ids))")
            return Outcome(status: .failed, events: [])
        }
        progress.settles = provider.method.settles
        let stream = StateStream()
        await checkout.addObserver(stream)
        let stopNotices = session.notices.subscribe { stream.notice($0) }
        defer { stopNotices() }
        // What a provider asks at the terminal (Square's reader) the scenario's customer answers.
        let stopPrompts = await session.desk.subscribe { stream.prompt($0) }
        let timeout = options.timeoutSeconds
        var driver = CheckoutDriver(
            mode: .headless, customer: scenario.customer, customerSimulated: customer != nil, authorizationTimeoutSeconds: timeout)
        let commands = HeadlessDriverCommands(
            checkout: checkout, control: customer, desk: session.desk, stream: stream, json: options.json, writeError: writeError)
        defer { commands.cancelWaits() }

        let order: PaymentOrder
        do { order = try scenario.order(cart: try scenario.cart(in: session.catalog), merchantName: session.catalog.merchantName) } catch {
            await stopPrompts()
            writeError("error: scenario \"\(scenario.name)\": \(error)")
            return Outcome(status: .failed, events: [])
        }
        let amount = order.amount
        emit(.state(.notStarted), recorder)
        await commands.perform(driver.handle(.paying(provider.method)))
        await checkout.pay(order, with: provider.plan)

        following: for await input in stream.inputs {
            switch input {
            case .flow(let event):
                emit(event, recorder)
                switch event {
                case .notice: continue following
                case .phase(let phase): await commands.perform(driver.handle(.phaseChanged(phase)))
                case .state(let state): await commands.perform(driver.handle(.stateChanged(state, at: Date())))
                }
                progress.latest = (driver.state, driver.phase)
                // Ended as the printed events say (the runner may already be further on).
                if driver.ended { break following }
            case .prompt(let prompt):
                await commands.perform(driver.handle(.promptChanged(prompt)))
            case .timer(let timer):
                await commands.perform(driver.handle(.timerFired(timer)))
            }
        }
        let (final, finalPhase) = (driver.state, driver.phase)

        await stopPrompts()
        var status = ExitStatus(final: final, phase: finalPhase, settles: provider.method.settles)
        if commands.stoppedEarly != nil {
            // Said already: the sandbox refused the control token.
        } else if !final.isTerminal {
            writeError("timeout: the checkout did not finish within \(timeout) s (last state \(final.name))")
        } else if !final.ends(with: finalPhase, settles: provider.method.settles) {
            writeError("timeout: settlement did not finish within \(timeout) s (last step \(finalPhase?.name ?? final.name))")
        }
        if case .settlementFailed(let failure)? = finalPhase { writeError("settlement failed: \(failure.reason)") }
        // What the attempt came to (a wallet's shipping, a tip), else what was asked.
        var summary = summarize(
            final: final, phase: finalPhase, status: status, amount: final.createdAttempt?.amount ?? amount, elapsedMilliseconds: recorder.elapsedMilliseconds,
            exchanges: http.log.entries.count)
        if let expect = scenario.expect {
            let verdict = check(expect, final: final, phase: finalPhase)
            status = verdict.status
            summary += "\n" + verdict.line
        }
        if let path = options.recordPath,
            !writeTranscript(to: path, recorder: recorder, session: session, final: final, phase: finalPhase, status: status, summary: summary)
        {
            status = .failed
        }
        return Outcome(status: status, events: recorder.events)
    }

    /// Writes the transcript `--record` asked for; false (and an error line) when it can't.
    private func writeTranscript(
        to path: String, recorder: TranscriptRecorder, session: PaymentSession, final: CheckoutState, phase: CheckoutPhase?,
        status: ExitStatus, summary: String
    ) -> Bool {
        var scenario = options.scenario
        scenario.addOptions(from: options.session)
        return recorder.write(
            to: path, scenario: scenario, title: "\(scenario.name) (\(scenario.provider))", summary: summary, final: final, phase: phase,
            status: status, exchanges: session.http.log.entries, say: writeError)
    }

    static func seconds(_ milliseconds: Int) -> String {
        let hundredths = (max(0, milliseconds) + 5) / 10
        return "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    }

    /// Compares the end with the scenario's expectation: exit 0 when it holds, 1 when not.
    private func check(_ expect: ScenarioExpectation, final: CheckoutState, phase: CheckoutPhase?) -> (status: ExitStatus, line: String) {
        let actual = ScenarioExpectation(state: final.name, phase: expect.phase == nil ? nil : phase?.name ?? "none")
        let met = expect.holds(state: final.name, phase: phase?.name)
        let line = options.json
            ? JSONLine.encode([
                "expect": ["state": expect.state, "phase": expect.phase as Any? ?? NSNull()] as [String: Any],
                "actual": ["state": final.name, "phase": phase?.name as Any? ?? NSNull()] as [String: Any], "met": met,
            ])
            : met ? "expect: met (\(expect.description))" : "expect: NOT met: expected \(expect.description), got \(actual.description)"
        write(line)
        return (met ? .approved : .declined, line)
    }

    private func emit(_ event: FlowEvent, _ recorder: TranscriptRecorder) {
        let recorded = recorder.record(event)
        write(options.json ? recorded.json : recorded.line)
    }

    /// Prints the result line and returns it (transcripts keep it for headless replay).
    @discardableResult
    private func summarize(final: CheckoutState, phase: CheckoutPhase?, status: ExitStatus, amount: Money, elapsedMilliseconds: Int, exchanges: Int) -> String {
        if options.json {
            var object: [String: Any] = [
                "provider": options.scenario.provider, "scenario": options.scenario.name,
                "summary": true, "final_state": final.name, "exit_status": Int(status.rawValue),
                "elapsed_ms": elapsedMilliseconds, "amount": amount.minorUnits, "currency": amount.currency.code,
                "http_exchanges": exchanges,
            ]
            if let id = final.createdAttempt?.id { object["request_id"] = id }
            if case .declined(let attempt) = final, let reason = attempt.declineReason { object["decline_reason"] = reason }
            if let phase {
                object["final_phase"] = phase.name
                // The provider's receipt facts (Adyen: psp_reference, result_code, stored_payment_method_id).
                object.merge(phase.details) { current, _ in current }
                if case .completed(let receipt) = phase {
                    if options.printReceipt, !receipt.printout.isEmpty { object["receipt"] = receipt.printout }
                    if let headline = receipt.headline { object["headline"] = headline }
                    // A voided authorization (cancelled as asked, through the handle, or by a delay action).
                    if !receipt.charged { object["charged"] = false }
                    for (key, list) in receipt.lists where object[key] == nil { object[key] = list }
                }
            }
            let line = JSONLine.encode(object)
            write(line)
            return line
        }
        if case .completed(let receipt)? = phase, let headline = receipt.headline { writeError("note: " + headline) }
        if options.printReceipt, case .completed(let receipt)? = phase {
            if receipt.printout.isEmpty {
                writeError("note: \(options.scenario.provider) prints no receipt")
            } else {
                write(Self.framed(receipt.printout))
            }
        }
        let line = "result: \(phase.map { "\(final.name), \($0.name)" } ?? final.name) after \(Self.seconds(elapsedMilliseconds)) s, \(SettledAmount.text(asked: amount, phase: phase)), \(exchanges) HTTP exchange\(exchanges == 1 ? "" : "s")"
        write(line)
        if let error = final.error {
            let method = options.session.registry.descriptor(options.scenario.provider)?.method.label ?? options.scenario.provider
            writeError("what to do: \(Self.advice(for: final, error: error, method: method))")
        }
        return line
    }

    /// A printed receipt: its lines in a box as wide as the longest.
    static func framed(_ lines: [String]) -> String {
        let safe = lines.map { TerminalText.escapingControls($0) }
        let width = safe.map(\.count).max() ?? 0
        let rule = "+" + String(repeating: "-", count: width + 2) + "+"
        return ([rule] + safe.map { "| " + $0.padding(toLength: width, withPad: " ", startingAt: 0) + " |" } + [rule]).joined(separator: "\n")
    }

    static func advice(for state: CheckoutState, error: ProviderFailure, method: String) -> String {
        switch state {
        case .apiError: "\(method) is having trouble (\(error.code)); try again in a few minutes or offer another payment method."
        case .integrationError: "fix the request or credentials (\(error.code)\(error.field.map { " in \($0)" } ?? "")) and run again."
        case .networkError: "check that the API host is reachable, then run again."
        default: "run again with --json and attach the output to a support ticket."
        }
    }
}

/// How far a headless run has come, for the transcript an interrupting signal writes.
final class RunProgress: Sendable {
    private let state = Mutex<(state: CheckoutState, phase: CheckoutPhase?, settles: Bool)>((.notStarted, nil, false))

    var latest: (state: CheckoutState, phase: CheckoutPhase?) {
        get { state.withLock { ($0.state, $0.phase) } }
        set { state.withLock { ($0.state, $0.phase) = (newValue.state, newValue.phase) } }
    }

    var settles: Bool {
        get { state.withLock { $0.settles } }
        set { state.withLock { $0.settles = newValue } }
    }
}
