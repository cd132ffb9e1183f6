import ArgumentParser
import CheckoutApp

struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List the payment providers: what each emulates, its endpoints, options and sandbox magic values.",
        discussion: """
            Pass an id to --provider (checkout run) or a scenario's `provider:`; the screen's payment pane lists the same. \
            --json prints one JSON document (Schemas/providers.schema.json).
            """ + "\n" + ExitCodes.section([.init(ExitStatus.approved.rawValue, meaning: "listed"), ExitCodes.usage()])
    ).parsedUnderCheckout()

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() {
        Console.out(json ? ProvidersListing.json(.builtIn) : ProvidersListing.text(.builtIn))
    }
}
