import ArgumentParser

extension CommandConfiguration {
    /// This subcommand's configuration, naming `checkout` as the command above it. When the
    /// subcommand is parsed on its own (`CheckoutCommand.fastSubcommand`), ArgumentParser then
    /// skips its check for `--generate-completion-script`, which parses the whole command line
    /// twice more as two other commands: a third of `checkout run`'s parse. A completion-script
    /// request does not parse as a subcommand, so it still reaches the root's full parse.
    func parsedUnderCheckout() -> CommandConfiguration {
        var configuration = self
        configuration._superCommandName = "checkout"
        return configuration
    }
}
