import CheckoutModel
import CheckoutResources
import Foundation
import Sandbox

/// `checkout demo`: a scripted checkout played in a loop on the live screen.
public enum DemoMode {
    /// The bundled demo script (Resources/scenarios/demo.yaml).
    public static func bundledScenarioPath() -> String? {
        CheckoutResources.scenariosDirectory?.appendingPathComponent("demo.yaml").path
    }

    /// Runs the demo until the user ends it; returns the exit status.
    public static func run(
        scenario: Scenario, session: SessionOptions, colors: Bool, speed: Double = 1, writeError: @escaping @Sendable (String) -> Void
    ) async -> Int32 {
        let script: DemoScript
        do { script = try DemoScript(scenario: scenario, catalog: try Catalog.bundled(), speed: speed) } catch {
            writeError("error: the demo script \"\(scenario.name)\" cannot be played: \(error)")
            return 2
        }
        // The script presses a or x itself, so the scenario's customer stays still.
        var shown = scenario
        shown.customer = .none
        var options = TerminalCheckoutOptions(session: sessionOptions(session), colors: colors, authorizationTimeoutSeconds: 120, scenario: shown)
        options.director = DemoDirector(script: script)
        options.quietEnd = true
        return await TerminalCheckout.run(options: options, writeError: writeError)
    }

    /// The session a demo runs: its embedded sandbox keeps a loop's worth (`demoLoop`).
    static func sessionOptions(_ session: SessionOptions) -> SessionOptions {
        var session = session
        session.embeddedSandboxLimits = .demoLoop
        return session
    }
}

extension SandboxLimits {
    /// A demo plays one checkout again and again for as long as a meeting lasts. A day's worth
    /// of requests and journal entries (5,000 each, a few KB apiece) grew its memory by about
    /// 2 KB a second for hours; it keeps a few loops' requests, and no journal (nobody reads it).
    static var demoLoop: SandboxLimits {
        var limits = SandboxLimits()
        limits.maxStoredRequests = 16
        limits.maxJournalEntries = 0
        return limits
    }
}
