import ArgumentParser
import CheckoutApp
import Foundation

@main
struct CheckoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout",
        abstract: "Walk through payment checkouts in the terminal, against an embedded sandbox or a provider's.",
        discussion: """
            Without a subcommand, opens the full-screen checkout: a cart, shipping and payment \
            methods, a live state banner and the HTTP log. Press ? inside for every key. \
            NO_COLOR (or --no-color) draws without colours.
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, SandboxCommand.self]
    )

    @OptionGroup var endpointFlags: EndpointFlags

    @Flag(help: "Draw without colours (as NO_COLOR does).")
    var noColor = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let colors = !noColor && (environment["NO_COLOR"] ?? "").isEmpty
        let status = await TerminalCheckout.run(
            options: TerminalCheckoutOptions(endpoint: endpointFlags.endpoint, colors: colors), writeError: Console.err)
        throw ExitCode(status)
    }
}
