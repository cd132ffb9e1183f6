import CheckoutApp

extension ScreenCommand {
    /// The screen's statuses, for `checkout screen --help` and plain `checkout --help` (which runs it).
    static let exitCodes: [ExitCodes.Entry] = [
        .init(ExitStatus.approved.rawValue, meaning: "quit (q, or Ctrl-C pressed in the screen), whatever the checkout came to"),
        .init(
            ExitStatus.failed.rawValue,
            meaning: "no terminal, the screen or its session (the embedded sandbox) could not start, the bundled catalog cannot be read, "
                + "or the --record transcript could not be written"),
        ExitCodes.usage(", a scenario file that cannot be read, or a --record path that cannot be written"),
        ExitCodes.signals("restoring the terminal and writing the transcript --record asked for"),
    ]
}
