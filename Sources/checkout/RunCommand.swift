import ArgumentParser
import CheckoutApp
import CheckoutModel
import Foundation
import TerminalUI

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run one checkout without the screen (a scenario file, or the default cart), printing each state.",
        discussion: """
            Without --cashapp-url this starts the embedded sandbox, where a simulated customer \
            approves or declines. Output is one line per state (`state: polling request=GRR_…`), \
            or one JSON object per line with --json, then a summary.

            SCENARIO is a YAML or JSON file (see Resources/scenarios) naming the cart, provider, \
            customer, faults and the expected end; the run then exits 0 when the expectation \
            holds and 1 when it does not, printing both. --provider, --customer and --amount \
            override the file.

            With --provider afterpay the checkout first gets an Afterpay token and signs it \
            (`phase: token`, `phase: signing`), and after approval validates and captures \
            (`phase: validating`, `phase: capturing`, `phase: completed`).

            --record FILE.har writes a HAR 1.2 transcript (secrets redacted) that browsers' \
            developer tools import and `checkout replay` plays back. --replay FILE.har runs the \
            recorded checkout again on a fresh sandbox and reports the first step that differs.

            --json prints one JSON object per line: Schemas/run.schema.json describes each kind.

            """ + ProviderCommandLine.help + "\n" + ExitCodes.section(exitCodes)
    ).parsedUnderCheckout()

    static let exitCodes: [ExitCodes.Entry] = [
        .init(ExitStatus.approved.rawValue, meaning: "approved (a provider that settles, such as Afterpay: completed); with a scenario's expect or --replay: it holds"),
        .init(ExitStatus.declined.rawValue, meaning: "declined, or a capture the provider declined; with a scenario's expect or --replay: it does not hold"),
        .init(
            ExitStatus.failed.rawValue,
            meaning: "an error state (apiError, integrationError, networkError, unexpectedError), a failed settlement, a timeout, "
                + "a checkout that could not start, or a --record transcript that could not be written"),
        ExitCodes.usage(", a scenario or transcript that cannot be read, a --customer the provider does not support, or a --record path that cannot be written"),
        ExitCodes.signals("after writing the transcript --record asked for and removing the run's faults from a shared sandbox"),
    ]

    @Argument(help: ArgumentHelp("A scenario file (.yaml or .json).", valueName: "scenario"), completion: .file(extensions: ["yaml", "yml", "json"]))
    var scenarioPath: String?

    @Option(help: ArgumentHelp(
        "The payment provider: \(ProviderRegistry.builtIn.ids.joined(separator: ", ")) (see `checkout providers`).", valueName: "id"),
        completion: .list(ProviderRegistry.builtIn.ids))
    var provider: String?

    @Option(help: ArgumentHelp(
        "What the simulated customer does (embedded sandbox only): approve, decline, none or 'approve-after SECONDS' (0 to 3600).",
        valueName: "behaviour"))
    var customer: CustomerBehaviour?

    @Flag(help: "Print one JSON object per line instead of text.")
    var json = false

    @Flag(help: "Print the receipt once paid (providers that print one: Square).")
    var receipt = false

    @OptionGroup var sessionFlags: SessionFlags

    @Option(parsing: .unconditional, help: ArgumentHelp("Charge this many cents instead of the cart total (sandbox magic values).", valueName: "minor-units"))
    var amount: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Give up after this many seconds without a decision.", valueName: "seconds"))
    var timeout: Int = 300

    @Option(help: ArgumentHelp("Write a HAR 1.2 transcript of the run to this file.", valueName: "file.har"), completion: .file(extensions: ["har"]))
    var record: String?

    @Option(
        help: ArgumentHelp("Run the checkout recorded in this transcript again and report the first divergence.", valueName: "file.har"),
        completion: .file(extensions: ["har"]))
    var replay: String?

    func validate() throws {
        if let amount, !InputLimits.minorUnits.contains(amount) {
            throw ValidationError("--amount must be a number of cents from \(InputLimits.describe(InputLimits.minorUnits) { "\($0)" }), got \(amount)")
        }
        if !InputLimits.timeoutSeconds.contains(timeout) {
            throw ValidationError("--timeout must be a number of seconds from \(InputLimits.describe(InputLimits.timeoutSeconds) { "\($0)" }), got \(timeout)")
        }
        if replay != nil, scenarioPath != nil { throw ValidationError("give a scenario or --replay FILE.har, not both") }
        if let provider {
            do { _ = try ProviderRegistry.builtIn.resolve(provider) } catch { throw ValidationError("--provider: \(error)") }
        }
    }

    func run() async throws {
        StartupTrace.mark("run")
        // Worked out once: each reading resolves the profile and reads the environment again.
        let sessionOptions = sessionFlags.options
        let catalog = try loadCatalog(currency: sessionOptions.currency)
        var scenario: Scenario
        var recorded: [RecordedEvent]?
        if let replay {
            do {
                let document = try Transcript.load(replay)
                scenario = try Transcript.scenario(of: document, path: replay, catalog: catalog)
                recorded = document.log.terminalCheckout?.events ?? []
            } catch {
                Console.err("error: \(error)")
                throw ExitCode(.usage)
            }
        } else if let scenarioPath {
            do { scenario = try ScenarioParser.load(path: scenarioPath, catalog: catalog) } catch {
                Console.err("error: \(error)")
                throw ExitCode(.usage)
            }
        } else {
            scenario = Scenario(name: "default cart")
            // A profile offering some providers only checks out with its first by default.
            scenario.provider = sessionOptions.registry.defaultProvider.id
        }
        if let provider { scenario.provider = provider }
        if let customer { scenario.customer = customer }
        if let amount { scenario.amount = Money(minorUnits: amount, currency: catalog.currency) }
        if let descriptor = ProviderRegistry.builtIn.descriptor(scenario.provider),
            !descriptor.customerBehaviours.contains(scenario.customer.keyword) {
            Console.err("error: --customer: \(scenario.provider) does not support \"\(scenario.customer.keyword)\"; use one of \(descriptor.customerBehaviours.joined(separator: ", "))")
            throw ExitCode(.usage)
        }

        // What only the provider checked out with needs (Cash App's own credentials).
        if let descriptor = sessionOptions.registry.descriptor(scenario.provider),
            let problem = descriptor.usageProblem(sessionOptions.providerOptions.filling(from: ProviderOptionValues(scenario.options)))
        {
            Console.err("error: \(problem)")
            throw ExitCode(.usage)
        }

        let options = HeadlessOptions(
            session: sessionOptions, scenario: scenario, json: json, timeoutSeconds: timeout, recordPath: record, printReceipt: receipt)
        let outcome = await HeadlessCheckout(options: options, write: Console.out, writeError: Console.err).runCheckout()
        guard let recorded else { throw ExitCode(outcome.status) }
        let divergence = ReplayDivergence.first(recorded: recorded, actual: outcome.events)
        Console.out(ReplayVerdictLine.line(divergence, recorded: recorded, actual: outcome.events, json: json))
        // As a scenario's expectation: 0 it holds, 1 it does not.
        throw ExitCode(divergence == nil ? .approved : .declined)
    }
}

extension CustomerBehaviour: ExpressibleByArgument {
    public init?(argument: String) { self.init(spelling: argument) }
}
