import ProviderWire

/// How the checkout asks Antom for a bank payment: the display mode, the component's
/// configuration, and the session's fields. Read from `--mode`, `--locale`, … once, where
/// they enter; a payment's own options (the screen's locale switch) override the session's.
public struct AntomPaymentSettings: Hashable, Sendable {
    public static let localeFlag = "locale"

    public var mode: AntomDisplayMode
    /// What the user asked for, kept to say once when it fell back to English.
    public var localeSpelling: String?
    public var clientKind: AntomClientKind
    public var showLoading: Bool
    /// `CASHIER_PAYMENT` or `AGREEMENT_PAYMENT`.
    public var productCode: String
    public var settlementCurrency: String?
    /// How long a session lives (≤ 1 h); nil leaves it to Antom.
    public var sessionLifetimeSeconds: Int?
    /// Pointed at the real Antom: its session data is opaque, so the hosted cashier link is used.
    public var hostedCashierOnly: Bool

    public init(
        mode: AntomDisplayMode = .bankCountry("TH"), localeSpelling: String? = nil, clientKind: AntomClientKind = .app, showLoading: Bool = true,
        productCode: String = "CASHIER_PAYMENT", settlementCurrency: String? = nil, sessionLifetimeSeconds: Int? = nil, hostedCashierOnly: Bool = false
    ) {
        self.mode = mode
        self.localeSpelling = localeSpelling
        self.clientKind = clientKind
        self.showLoading = showLoading
        self.productCode = productCode
        self.settlementCurrency = settlementCurrency
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
        self.hostedCashierOnly = hostedCashierOnly
    }

    public var locale: AntomLocale { AntomLocale.resolve(localeSpelling).locale }

    /// These settings with a payment's own options applied (only the locale may change per payment).
    public func applying(_ options: [String: String]) -> AntomPaymentSettings {
        var settings = self
        if let locale = options[Self.localeFlag] { settings.localeSpelling = locale }
        return settings
    }
}
