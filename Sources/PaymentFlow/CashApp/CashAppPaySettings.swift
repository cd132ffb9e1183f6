/// How a Cash App Pay request is made, as PayKit's `CashAppPayConfiguration(redirectURL:)` and
/// its actions: a one-time payment, an on-file payment (`onFilePayment(scopeID:accountReferenceID:)`),
/// or both in one request.
public struct CashAppPaySettings: Sendable, Hashable {
    /// Whether the request asks for an on-file payment, and beside what.
    public enum OnFile: String, Sendable, Hashable, CaseIterable {
        /// The one-time payment and an ON_FILE_PAYMENT action: a ONE_TIME and an EXTENDED grant.
        case also
        /// Only the ON_FILE_PAYMENT action: one EXTENDED grant, nothing charged now.
        case only

        /// `also`, `only`, or `true` (the screen's toggle and a profile's `on-file: true`: `also`).
        public init?(option: String) {
            if option == "true" { self = .also } else { self.init(rawValue: option) }
        }
    }

    public static let defaultRedirectURL = "terminalcheckout://checkout/return"
    /// The option flag a payment's own options may carry (the screen's toggle).
    public static let onFileFlag = "on-file"

    /// nil: a one-time payment alone.
    public var onFile: OnFile?
    /// The merchant's id for the customer's account, sent with the on-file action.
    public var accountReferenceID: String?
    /// Where Cash App sends the customer back (`redirect_url`).
    public var redirectURL: String

    public init(onFile: OnFile? = nil, accountReferenceID: String? = nil, redirectURL: String = Self.defaultRedirectURL) {
        self.onFile = onFile
        self.accountReferenceID = accountReferenceID
        self.redirectURL = redirectURL
    }

    /// These settings with a payment's options applied (the screen's on-file toggle).
    public func applying(_ options: [String: String]) -> CashAppPaySettings {
        var settings = self
        if let value = options[Self.onFileFlag] { settings.onFile = OnFile(option: value) }
        return settings
    }
}
