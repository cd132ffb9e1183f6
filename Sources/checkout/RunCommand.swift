import ArgumentParser
import CheckoutApp
import Foundation

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run one checkout of the default cart without the screen, printing each state.",
        discussion: """
            Without --cashapp-url this starts the embedded sandbox, where a simulated customer \
            approves or declines. Output is one line per state (`state: polling request=GRR_…`), \
            or one JSON object per line with --json, then a summary.

            With --provider afterpay the checkout first gets an Afterpay token and signs it \
            (`phase: token`, `phase: signing`), and after approval validates and captures \
            (`phase: validating`, `phase: capturing`, `phase: completed`).

            Exit status: 0 approved (Afterpay: completed), 1 declined, 2 an error state, a failed \
            settlement or a timeout, 64 bad usage.
            """
    )

    @Option(help: "The payment provider: cashapp, or afterpay (Cash App Pay through an Afterpay merchant account).")
    var provider: CheckoutProvider = .cashapp

    @Option(help: "What the simulated customer does (embedded sandbox only): approve, decline or none.")
    var customer: CustomerChoice = .approve

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    @OptionGroup var sessionFlags: SessionFlags

    @Option(help: ArgumentHelp("Charge this many cents instead of the cart total (sandbox magic values).", valueName: "minor-units"))
    var amount: Int?

    @Option(help: ArgumentHelp("Give up after this many seconds without a decision.", valueName: "seconds"))
    var timeout: Int = 300

    func validate() throws {
        if let amount, amount <= 0 { throw ValidationError("--amount must be a positive number of cents, got \(amount)") }
        if timeout <= 0 { throw ValidationError("--timeout must be at least 1 second, got \(timeout)") }
    }

    func run() async throws {
        var options = HeadlessOptions(
            session: sessionFlags.options, customer: customer.behaviour, json: json, amountOverride: amount, timeoutSeconds: timeout)
        options.provider = provider
        let status = await HeadlessCheckout(options: options, write: Console.out, writeError: Console.err).run()
        throw ExitCode(status.rawValue)
    }
}

/// `--customer` values.
enum CustomerChoice: String, ExpressibleByArgument, CaseIterable {
    case approve, decline, none

    var behaviour: CustomerBehaviour {
        switch self {
        case .approve: .approve
        case .decline: .decline
        case .none: .none
        }
    }
}

extension CheckoutProvider: ExpressibleByArgument {}
