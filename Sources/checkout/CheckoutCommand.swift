import ArgumentParser
import CheckoutApp

@main
struct CheckoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout",
        abstract: "Walk through payment checkouts in the terminal, against an embedded sandbox or a provider's.",
        discussion: """
            Without a subcommand, checkout will open the full-screen checkout (coming next); for now \
            use `checkout run` for a headless checkout and `checkout sandbox` for the sandbox alone.
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, SandboxCommand.self]
    )

    func run() async throws {
        Console.out("The full-screen checkout is not built yet. Try `checkout run --provider cashapp --customer approve`.\n")
        Console.out(CheckoutCommand.helpMessage())
    }
}
