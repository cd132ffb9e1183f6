import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Sandbox

/// `checkout run`: one Cash App Pay checkout of the default cart, start to decision, printing
/// a line per state. Returns the exit status.
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
        let clock = ContinuousClock()
        let started = clock.now

        let session: PaymentSession
        do { session = try await PaymentSession.start(options.session) } catch {
            writeError("error: \(error)")
            return .failed
        }
        defer { Task { await session.stop() } }
        let (http, pay, customer, configuration) = (session.http, session.pay, session.customer, session.configuration)
        let retries = options.json ? nil : http.log.subscribe { [writeError] exchange in
            if let failure = exchange.failure { writeError("http: \(exchange.method) \(exchange.path) attempt \(exchange.attempt) failed: \(failure)") }
        }
        defer { retries?.cancel() }
        let stream = StateStream()
        await pay.addObserver(stream)

        let timeout = options.timeoutSeconds
        let watchdog = Task {
            try await Task.sleep(for: .seconds(timeout))
            await pay.authorizationTimedOut(seconds: timeout)
            try await Task.sleep(for: .seconds(1))
            stream.finish()
        }
        defer { watchdog.cancel() }

        let elapsed = { () -> Int in
            let duration = clock.now - started
            return Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        }
        let amount: Money
        let checkout: AfterpayCheckoutRequest
        do {
            let summary = try OrderSummary(cart: session.catalog.defaultCart, merchantName: session.catalog.merchantName)
            amount = options.amountOverride.map { Money(minorUnits: $0, currency: .usd) } ?? summary.total
            checkout = .forCart(session.catalog.defaultCart, summary: summary, total: amount, merchantName: session.catalog.merchantName)
        } catch {
            writeError("error: \(error)")
            return .failed
        }
        emit(.state(.notStarted), at: elapsed(), amount: amount)
        let afterpay = AfterpayFlow(afterpay: session.afterpay, pay: pay) { stream.phaseDidChange(to: $0) }
        switch options.provider {
        case .cashapp: await pay.createCustomerRequest(params: params(amount: amount, brandID: configuration.brandID))
        case .afterpay: Task { await afterpay.begin(checkout) }
        }

        var final: CashAppPayState = .notStarted
        var finalPhase: CheckoutPhase?
        for await event in stream.events {
            emit(event, at: elapsed(), amount: amount)
            switch event {
            case .phase(let phase):
                finalPhase = phase
                if case .completed = phase { break }
                if case .settlementFailed = phase { break }
                continue
            case .state(let state):
                final = state
                switch state {
                case .readyToAuthorize: await pay.authorizeCustomerRequest()
                case .polling(let request): actAsCustomer(customer, on: request)
                case .approved(let request, let grants) where options.provider == .afterpay:
                    Task { await afterpay.settle(request: request, grants: grants) }
                    continue
                default: break
                }
                if !state.isTerminal { continue }
            }
            break
        }

        let status = Self.exitStatus(final: final, phase: finalPhase, provider: options.provider)
        if !final.isTerminal { writeError("timeout: the checkout did not finish within \(timeout) s (last state \(final.name))") }
        if case .settlementFailed(let reason)? = finalPhase { writeError("settlement failed: \(reason)") }
        summarize(final: final, phase: finalPhase, status: status, amount: amount, elapsedMilliseconds: elapsed(), exchanges: http.log.entries.count)
        return status
    }

    /// Exit 0 only when the flow reached its end: `approved` for Cash App Pay, `completed` for Afterpay.
    static func exitStatus(final: CashAppPayState, phase: CheckoutPhase?, provider: CheckoutProvider) -> ExitStatus {
        guard final.isTerminal else { return .failed }
        guard provider == .afterpay, case .approved = final else { return ExitStatus(finalState: final) }
        switch phase {
        case .completed?: return .approved
        case .settlementFailed(let reason)? where reason.hasPrefix("capture DECLINED"): return .declined
        default: return .failed
        }
    }

    private func params(amount: Money, brandID: String) -> CreateCustomerRequestParams {
        CreateCustomerRequestParams(
            actions: [.oneTimePayment(scopeID: brandID, amount: amount.minorUnits, currency: amount.currency.code)],
            channel: .ONLINE, redirectURL: "terminalcheckout://checkout/return",
            referenceID: "tc-" + UUID().uuidString.prefix(8).lowercased())
    }

    /// In the embedded sandbox the simulated customer acts; elsewhere the real customer must.
    private func actAsCustomer(_ control: SandboxControlClient?, on request: CustomerRequest) {
        let url = request.authFlowTriggers?.mobileURL ?? "(no link)"
        guard let control else {
            writeError("note: approve or decline on the customer's device (Cash App sandbox): \(url)")
            return
        }
        let decision: SandboxControlClient.CustomerDecision
        switch options.customer {
        case .approve: decision = .approve
        case .decline: decision = .decline
        case .none:
            writeError("note: waiting for the customer; open \(url) in a browser to approve or decline")
            return
        }
        let writeError = writeError
        Task {
            do { _ = try await control.customer(decision, requestID: request.id) } catch {
                writeError("warning: the simulated customer could not \(decision.rawValue): \(error)")
            }
        }
    }

    private func emit(_ event: FlowEvent, at milliseconds: Int, amount: Money) {
        switch event {
        case .state(let state):
            let line = StateLine(state: state, atMilliseconds: milliseconds, amount: amount.formatted)
            write(options.json ? line.json : line.text)
        case .phase(let phase):
            write(options.json ? PhaseLine.json(phase, atMilliseconds: milliseconds) : PhaseLine.text(phase))
        }
    }

    private func summarize(final: CashAppPayState, phase: CheckoutPhase?, status: ExitStatus, amount: Money, elapsedMilliseconds: Int, exchanges: Int) {
        if options.json {
            var object: [String: Any] = [
                "provider": options.provider.rawValue,
                "summary": true, "final_state": final.name, "exit_status": Int(status.rawValue),
                "elapsed_ms": elapsedMilliseconds, "amount": amount.minorUnits, "currency": amount.currency.code,
                "http_exchanges": exchanges,
            ]
            if let request = final.request { object["request_id"] = request.id }
            if let phase { object["final_phase"] = phase.name }
            write(JSONLine.encode(object))
            return
        }
        let seconds = String(format: "%.2f", Double(elapsedMilliseconds) / 1000)
        write("result: \(phase.map { "\(final.name), \($0.name)" } ?? final.name) after \(seconds) s, \(amount.formatted), \(exchanges) HTTP exchange\(exchanges == 1 ? "" : "s")")
        if let error = final.error { writeError("what to do: \(Self.advice(for: final, error: error))") }
    }

    static func advice(for state: CashAppPayState, error: CashAppPayError) -> String {
        switch state {
        case .apiError: "Cash App Pay is having trouble (\(error.code)); try again in a few minutes or offer another payment method."
        case .integrationError: "fix the request or credentials (\(error.code)\(error.field.map { " in \($0)" } ?? "")) and run again."
        case .networkError: "check that the API host is reachable, then run again."
        default: "run again with --json and attach the output to a support ticket."
        }
    }
}
