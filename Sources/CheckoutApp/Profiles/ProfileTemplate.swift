/// What `checkout config init` writes: a commented example with every kind of profile, each
/// taking its secrets from somewhere other than this file. The providers' examples are their
/// descriptors'.
public enum ProfileTemplate {
    public static let text = text(for: .builtIn)

    /// The template with `registry`'s providers' examples, in their order.
    public static func text(for registry: ProviderRegistry) -> String {
        let examples = registry.descriptors.compactMap(\.profileExample).sorted { $0.order < $1.order }
        return header + "\n" + examples.map { "\n" + $0.text + "\n" }.joined()
    }

    private static let header = """
        # TerminalCheckout profiles. Pick one with `checkout --profile NAME` or CHECKOUT_PROFILE=NAME;
        # without one, checkout runs on its embedded sandbox. `checkout config list|show|check`.
        #
        # A profile says which providers it offers, where they are (an option flag per line, as
        # on the command line: `checkout providers` lists them), and where each credential comes
        # from: `env: NAME`, `file: PATH` (only the secret in it), or `command: CMD` (its output is
        # the secret, e.g. a password manager's). `value: SECRET` puts the secret itself here,
        # and then checkout reads this file only while it is mode 0600 (chmod 600).
        # Flags on the command line win over the profile, and the profile over environment variables.
        profiles:
          # A team's shared sandbox (`checkout sandbox --host 0.0.0.0 --port 8080` on one machine).
          team-sandbox:
            description: The team's shared sandbox
            sandbox_url: http://sandbox.example.internal:8080
        """
}
