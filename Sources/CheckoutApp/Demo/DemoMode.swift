import CheckoutModel
import CheckoutResources
import Foundation

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
        var options = TerminalCheckoutOptions(session: session, colors: colors, authorizationTimeoutSeconds: 120, scenario: shown)
        options.director = DemoDirector(script: script)
        options.quietEnd = true
        return await TerminalCheckout.run(options: options, writeError: writeError)
    }
}
