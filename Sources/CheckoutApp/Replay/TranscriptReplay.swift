import CheckoutModel
import Foundation
import TerminalUI

/// `checkout replay FILE.har`: the recorded session again, on the screen or as the lines
/// `checkout run` printed.
public enum TranscriptReplay {
    /// Prints the recorded state and phase lines (and the result line), the same on every
    /// replay. Returns the exit status the run had.
    public static func printLines(_ document: HAR.Document, json: Bool, write: @Sendable (String) -> Void) -> Int32 {
        guard let record = document.log.terminalCheckout else { return 2 }
        for event in record.events { write(json ? event.json : event.line) }
        if let summary = record.summary, json == summary.hasPrefix("{") { write(summary) }
        return record.exitStatus ?? ExitStatus.failed.rawValue
    }

    /// Plays the session on the screen until the user quits.
    public static func show(
        _ document: HAR.Document, path: String, speed: Double, colors: Bool, writeError: @escaping @Sendable (String) -> Void
    ) async -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            writeError("error: \(TerminalError.notATerminal) (use --headless to print the states)")
            return 2
        }
        let catalog: Catalog
        let scenario: Scenario
        do {
            catalog = try Catalog.bundled()
            scenario = try Transcript.scenario(of: document, path: path, catalog: catalog)
        } catch {
            writeError("error: \(error)")
            return 2
        }
        var initial = AppState(
            catalog: catalog, endpointLabel: "replay of \(URL(fileURLWithPath: path).lastPathComponent)", customerSimulated: false,
            paymentMethods: ProviderRegistry.builtIn.paymentMethods, now: document.log.terminalCheckout?.startedDateTime ?? Date())
        do { try scenario.load(into: &initial, catalog: catalog) } catch {
            writeError("error: the recorded cart cannot be shown: \(error)")
            return 2
        }
        let timeline = ReplayTimeline(document)
        let director = ReplayDirector(timeline: timeline, recordedStart: timeline.startedAt, speed: speed)
        let outcome = await UILoop.runOnItsOwnThread(initial: initial, inbox: Inbox(), colors: colors, director: director) { _ in }
        if let failure = outcome.failure {
            writeError("error: \(failure)")
            return 2
        }
        return outcome.status
    }
}
