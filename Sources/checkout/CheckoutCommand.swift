import ArgumentParser
import CheckoutApp
import CheckoutModel
import Foundation
import TerminalUI

struct CheckoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout",
        abstract: "Walk through payment checkouts in the terminal, against an embedded sandbox or a provider's.",
        discussion: """
            Without a subcommand, opens the full-screen checkout (`checkout screen`): a cart, \
            shipping and payment methods, a live state banner, the QR code to scan and the HTTP \
            log. Press ? inside for every key. `checkout SCENARIO.yaml` opens it with a scenario \
            file (see Resources/scenarios); `--record FILE.har` keeps a transcript for support \
            tickets, `checkout replay FILE.har` plays one back, `checkout demo` runs a looping demo. \
            Clicks and the wheel work on the screen; --no-mouse leaves the mouse to the terminal.
            """ + "\n" + ExitCodes.section(ScreenCommand.exitCodes) + "\n  With a subcommand, it exits as that subcommand's --help says.",
        version: CheckoutVersion.described,
        subcommands: [ScreenCommand.self, RunCommand.self, ReplayCommand.self, DemoCommand.self, SandboxCommand.self]
            + ProviderRegistry.builtIn.commands.map(\.type) + [ProvidersCommand.self, ConfigCommand.self, JournalCommand.self],
        defaultSubcommand: ScreenCommand.self
    )

    /// The screen (the default command) parsed on its own: the root's parse walks every
    /// subcommand's options first, a third of the time to the first frame. Nil when the
    /// arguments name a subcommand or a root flag, or do not parse (the root then says why).
    static func fastScreenCommand(_ arguments: [String]) -> ScreenCommand? {
        if let first = arguments.first {
            let rootWords: Set<String> = ["-h", "--help", "help", "--version", "--generate-completion-script", "--experimental-dump-help"]
            guard !rootWords.contains(first), subcommandsByName[first] == nil, !first.hasPrefix("--generate-completion") else { return nil }
        }
        return try? ScreenCommand.parse(arguments)
    }

    /// The subcommands by name, written out (the providers' as their descriptors name them):
    /// asking each its name builds every command's help (a tenth of a headless checkout). Debug
    /// builds check it against `configuration`.
    static let subcommandsByName: [String: ParsableCommand.Type] = {
        var table: [String: ParsableCommand.Type] = [
            "screen": ScreenCommand.self, "run": RunCommand.self, "replay": ReplayCommand.self, "demo": DemoCommand.self,
            "sandbox": SandboxCommand.self, "providers": ProvidersCommand.self, "config": ConfigCommand.self,
            "journal": JournalCommand.self,
        ]
        for command in ProviderRegistry.builtIn.commands { table[command.name] = command.type }
        assert(Set(table.keys) == Set(configuration.subcommands.map { $0._commandName }), "subcommandsByName is out of date")
        return table
    }()

    /// A named subcommand parsed on its own, for the same reason (`checkout run`'s parse took a
    /// fifth of a headless checkout). Nil when it does not parse alone (help, a mistake): the
    /// root's parse then says it in full.
    static func fastSubcommand(_ arguments: [String]) -> ParsableCommand? {
        guard let first = arguments.first, let subcommand = subcommandsByName[first] else { return nil }
        return try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
    }

    /// Takes the providers' options off the command line, then parses and runs the rest.
    static func runCommandLine() async {
        StartupTrace.mark("main")
        let arguments: [String]
        let given = Array(CommandLine.arguments.dropFirst())
        // `checkout sandbox --store URL` is the sandbox's store, not the checkout option of that name.
        // By the name the table holds: asking the command's configuration builds all its help.
        let own = given.first.flatMap { subcommandsByName[$0] } == SandboxCommand.self ? SandboxStoreFlags.ownFlags : []
        do { arguments = try ProviderCommandLine.split(given, leaving: own) } catch { exitBeforeTheScreen(withError: error) }
        StartupTrace.mark("split")
        do {
            // CHECKOUT_PROFILE names a profile: the full parse resolves it.
            if arguments.isEmpty {
                let environment = ProcessInfo.processInfo.environment
                if environment[ConfigLocation.environmentProfile] == nil,
                    let defaults = TerminalCheckoutOptions.defaults(providerOptions: ProviderCommandLine.values, environment: environment)
                {
                    StartupTrace.mark("parsed")
                    throw ExitCode(await TerminalCheckout.run(options: defaults, writeError: Console.err))
                }
            }
            if let screen = fastScreenCommand(arguments) {
                StartupTrace.mark("parsed")
                try await screen.run()
                return
            }
            var command = try fastSubcommand(arguments) ?? parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            // What ArgumentParser's `exit(withError:)` does with an exit code (prints nothing,
            // exits with it), without the root's usage text it first builds and throws away:
            // a tenth of a headless checkout's instructions.
            Foundation.exit(code.rawValue)
        } catch {
            exitBeforeTheScreen(withError: error)
        }
    }

    /// ArgumentParser's exit with its message, on a terminal out of curses (plain `checkout`
    /// opens it ahead; a parse that fails never reaches the screen).
    private static func exitBeforeTheScreen(withError error: any Error) -> Never {
        CursesAhead.closeIfUntaken()
        exit(withError: error)
    }
}

struct ScreenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screen",
        abstract: "The full-screen checkout (what plain `checkout` runs).",
        discussion: """
            `checkout SCENARIO` opens the screen with a scenario file's cart, provider, faults and \
            customer (see Resources/scenarios); press p to pay. --record FILE.har writes a HAR \
            transcript of the session when you quit. NO_COLOR (or --no-color) draws without \
            colours. Needs a terminal; for scripts use `checkout run`.

            """ + ProviderCommandLine.help + "\n" + ExitCodes.section(exitCodes)
    ).parsedUnderCheckout()

    @Argument(help: ArgumentHelp("A scenario file (.yaml or .json) to open with.", valueName: "scenario"), completion: .file(extensions: ["yaml", "yml", "json"]))
    var scenarioPath: String?

    @OptionGroup var sessionFlags: SessionFlags

    @Option(help: ArgumentHelp("Write a HAR 1.2 transcript of the session to this file on quitting.", valueName: "file.har"), completion: .file(extensions: ["har"]))
    var record: String?

    @Flag(help: "Draw without colours (as NO_COLOR does).")
    var noColor = false

    @Flag(help: "Leave the mouse to the terminal (its own text selection): no clicks or wheel on the screen.")
    var noMouse = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop polling after this many seconds without the customer's decision.", valueName: "seconds"))
    var timeout: Int = SessionOptions.Defaults.authorizationTimeoutSeconds

    // `make bench`'s P3: extra cart lines and log entries, to time keys at scale (Benchmarks/README.md).
    @Option(help: .hidden)
    var benchLoad: String?

    func validate() throws {
        if !InputLimits.timeoutSeconds.contains(timeout) {
            throw ValidationError("--timeout must be a number of seconds from \(InputLimits.describe(InputLimits.timeoutSeconds) { "\($0)" }), got \(timeout)")
        }
        if let benchLoad {
            do { _ = try BenchLoad(parsing: benchLoad) } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let colors = !noColor && (environment["NO_COLOR"] ?? "").isEmpty
        let sessionOptions = sessionFlags.options(environment: environment)
        var scenario: Scenario?
        if let scenarioPath {
            do { scenario = try ScenarioParser.load(path: scenarioPath, catalog: try loadCatalog(currency: sessionOptions.currency)) } catch let error as ScenarioError {
                Console.err("error: \(error)")
                throw ExitCode(.usage)
            }
        }
        var options = TerminalCheckoutOptions(
            session: sessionOptions, colors: colors, authorizationTimeoutSeconds: timeout, scenario: scenario,
            recordPath: record, benchLoad: try benchLoad.map { try BenchLoad(parsing: $0) })
        options.mouse = !noMouse
        let status = await TerminalCheckout.run(options: options, writeError: Console.err)
        throw ExitCode(status)
    }
}
