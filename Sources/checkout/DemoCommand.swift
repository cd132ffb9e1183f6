import ArgumentParser
import CheckoutApp
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play a scripted checkout on the screen in a loop, for demos.",
        discussion: """
            Adds items, picks shipping, pays, shows the QR code, approves, captures and shows the \
            receipt, against the embedded sandbox, at a pace an audience can follow; then starts \
            over. Any key pauses for questions (and resumes); q ends the demo. --scenario plays \
            another scenario file's cart, shipping, provider and customer (default: \
            Resources/scenarios/demo.yaml).
            """ + "\n" + ExitCodes.section([
                .init(ExitStatus.approved.rawValue, meaning: "the demo was ended (q, or Ctrl-C pressed in it)"),
                .init(
                    ExitStatus.failed.rawValue,
                    meaning: "no terminal, the demo script cannot be played, or the screen or its embedded sandbox could not start"),
                ExitCodes.usage(", or a --scenario file that cannot be read"),
                ExitCodes.signals("restoring the terminal first"),
            ])
    ).parsedUnderCheckout()

    @Option(help: ArgumentHelp("The scenario file to play.", valueName: "file"))
    var scenario: String?

    @Option(parsing: .unconditional, help: "Play this many times faster (0.25 to 8), e.g. to rehearse.")
    var speed: Double = 1

    @Flag(help: "Draw without colours (as NO_COLOR does).")
    var noColor = false

    func validate() throws {
        guard speed >= 0.25, speed <= 8 else { throw ValidationError("--speed must be between 0.25 and 8, got \(speed)") }
    }

    func run() async throws {
        guard let path = scenario ?? DemoMode.bundledScenarioPath() else {
            Console.err("error: the bundled demo script is missing; pass --scenario FILE (see Resources/scenarios)")
            throw ExitCode(.failed)
        }
        let script: Scenario
        do { script = try ScenarioParser.load(path: path, catalog: try loadCatalog()) } catch let error as ScenarioError {
            Console.err("error: \(error)")
            throw ExitCode(.usage)
        }
        let colors = !noColor && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        throw ExitCode(await DemoMode.run(scenario: script, session: SessionOptions(), colors: colors, speed: speed, writeError: Console.err))
    }
}
