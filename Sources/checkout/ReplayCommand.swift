import ArgumentParser
import CheckoutApp
import Foundation

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a recorded transcript (--record FILE.har) on the screen, or print its states.",
        discussion: """
            On the screen the session plays at its recorded pace (times --speed): space pauses \
            and resumes, → steps to the next state or exchange, + and - change the speed, Tab and \
            Enter open the recorded HTTP exchanges, q quits. Nothing is sent to any provider.

            --headless prints the state and phase lines `checkout run` printed (--json: its JSON \
            lines), identical on every replay, and exits with the recorded run's status. To run the \
            recorded checkout again against a fresh sandbox use `checkout run --replay FILE.har`. \
            Schemas/replay.schema.json describes the --json lines.
            """ + "\n" + ExitCodes.section([
                .init(ExitStatus.approved.rawValue, meaning: "--headless: the recorded run exited 0 (approved or completed, or its expectation held); on the screen: quit"),
                .init(ExitStatus.declined.rawValue, meaning: "--headless: the recorded run exited 1 (declined, or its expectation did not hold)"),
                .init(
                    ExitStatus.failed.rawValue,
                    meaning: "--headless: the recorded run exited 2 (an error state, a failed settlement or a timeout), or the transcript "
                        + "holds no checkout; on the screen: no terminal, or the recorded cart cannot be shown"),
                ExitCodes.usage(", or a transcript that cannot be read"),
                ExitCodes.signals("on the screen"),
            ])
    ).parsedUnderCheckout()

    @Argument(help: ArgumentHelp("A transcript written by --record.", valueName: "file.har"), completion: .file(extensions: ["har"]))
    var path: String

    @Option(parsing: .unconditional, help: "Play this many times faster (0.125 to 64).")
    var speed: Double = 1

    @Flag(help: "Print the recorded state lines instead of showing the screen.")
    var headless = false

    @Flag(help: "With --headless, print the JSON lines.")
    var json = false

    @Flag(help: "Draw without colours (as NO_COLOR does).")
    var noColor = false

    func validate() throws {
        guard speed >= 0.125, speed <= 64 else { throw ValidationError("--speed must be between 0.125 and 64, got \(speed)") }
        if json, !headless { throw ValidationError("--json goes with --headless") }
    }

    func run() async throws {
        let document: HAR.Document
        do { document = try Transcript.load(path) } catch {
            Console.err("error: \(error)")
            throw ExitCode(.usage)
        }
        if headless { throw ExitCode(TranscriptReplay.printLines(document, json: json, write: Console.out)) }
        let colors = !noColor && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        throw ExitCode(await TranscriptReplay.show(document, path: path, speed: speed, colors: colors, writeError: Console.err))
    }
}
