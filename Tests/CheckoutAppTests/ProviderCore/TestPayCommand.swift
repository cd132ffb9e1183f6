import ArgumentParser
import CheckoutApp

/// `checkout testpay-status`: the test provider's own subcommand, brought by its descriptor as
/// Adyen brings `listen` and Square `offline`.
struct TestPayStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "testpay-status", abstract: "Say whether Test Pay is reachable.",
        discussion: ExitCodes.section([.init(0, meaning: "reachable"), ExitCodes.usage()]))

    @Flag(help: "Print JSON.")
    var json = false

    func run() {
        Console.out(json ? #"{"reachable":true}"# : "reachable")
    }
}
