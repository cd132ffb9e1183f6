/// What `checkout config init` writes: a commented example with every kind of profile, each
/// taking its secrets from somewhere other than this file.
public enum ProfileTemplate {
    public static let text = """
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

          # Square's sandbox with your own application's token.
          square-sandbox:
            description: Square sandbox, my test application
            providers: [square]
            options:
              square-url: https://connect.squareupsandbox.com
              square-location-id: YOUR_LOCATION_ID
            credentials:
              square-access-token: { env: SQUARE_ACCESS_TOKEN }

          # Adyen's test platform: the API key from a password manager, the HMAC key from a file.
          adyen-test:
            description: Adyen test, Cash App Pay component
            providers: [adyen]
            options:
              adyen-url: https://checkout-test.adyen.com/v71
              adyen-merchant-account: YourMerchantAccountECOM
            credentials:
              adyen-api-key: { command: "pass show adyen/test-api-key" }
              adyen-hmac-key: { file: ~/.config/checkout/adyen-hmac.key }

          # Cash App Pay's sandbox with your client and brand ids.
          cashapp-sandbox:
            providers: [cashapp]
            options:
              cashapp-url: https://sandbox.api.cash.app
            credentials:
              client-id: { env: CASHAPP_CLIENT_ID }
              brand-id: { env: CASHAPP_BRAND_ID }

        """
}
