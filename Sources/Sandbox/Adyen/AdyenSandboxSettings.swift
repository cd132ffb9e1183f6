/// What `checkout sandbox` and the tests change in Adyen's sandbox.
public struct AdyenSandboxSettings: SandboxProviderSettings {
    /// The webhook HMAC key (hex); nil signs with `AdyenHMAC.sandboxKey`. An invalid one is
    /// refused by `checkout sandbox --adyen-hmac-key`; here it falls back to the sandbox key.
    public var hmacKey: String?
    /// Seconds before a `Received` payment (magic 70.04 / 70.05) is decided by webhook.
    public var asyncResultDelay: Double = 2

    public init() {}
}

extension SandboxSettings {
    /// Adyen's own settings.
    public var adyen: AdyenSandboxSettings {
        get { self[AdyenSandboxSettings.self] }
        set { self[AdyenSandboxSettings.self] = newValue }
    }
}
