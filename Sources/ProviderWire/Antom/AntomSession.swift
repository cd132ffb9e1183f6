import Foundation

/// Antom's API paths: `SANDBOX_` client ids use `/ams/sandbox/api`, as the real service does.
public enum AntomPaths {
    public static let createPaymentSession = "/v1/payments/createPaymentSession"
    public static let inquiryPayment = "/v1/payments/inquiryPayment"

    /// `/ams/api` or `/ams/sandbox/api`, by client id.
    public static func prefix(clientID: String) -> String {
        clientID.hasPrefix("SANDBOX_") ? "/ams/sandbox/api" : "/ams/api"
    }

    public static func path(_ endpoint: String, clientID: String) -> String {
        prefix(clientID: clientID) + endpoint
    }
}

/// What the embedded sandbox puts in `paymentSessionData`, for the component to load: base64 of
/// this JSON, then `&&` and the region and a number, as Antom's opaque strings end. Real Antom's
/// session data is opaque; the component then offers only the hosted cashier link (`normalUrl`).
public struct AntomSessionData: Codable, Hashable, Sendable {
    public var paymentSessionId: String
    /// `sandbox` or `prod`: the component's `sandbox` option must agree.
    public var environment: String
    /// Where the component loads the session's banks (JSON) — its only call.
    public var cashierUrl: String

    public init(paymentSessionId: String, environment: String, cashierUrl: String) {
        self.paymentSessionId = paymentSessionId
        self.environment = environment
        self.cashierUrl = cashierUrl
    }

    public var encoded: String {
        let json = (try? JSONEncoder().encode(self)) ?? Data()
        return json.base64EncodedString() + "&&SG&&111"
    }

    /// Reads session data; nil when it is not the sandbox's shape.
    public init?(encoded: String) {
        guard let head = encoded.components(separatedBy: "&&").first, head.count <= 8192,
              let json = Data(base64Encoded: head),
              let decoded = try? JSONDecoder().decode(AntomSessionData.self, from: json) else { return nil }
        self = decoded
    }
}

/// What the component loads from the cashier: the session's banks and where each bank's page is.
public struct AntomCashier: Codable, Hashable, Sendable {
    public var paymentSessionId: String
    public var paymentRequestId: String
    /// The display mode's spelling (`bank-country:TH`).
    public var displayMode: String
    public var paymentAmount: AntomAmount
    public var banks: [AntomCashierBank]
    /// The hosted cashier page (HTML): the customer picks a bank there.
    public var cashierPageUrl: String
    public var paymentSessionExpiryTime: String?

    public init(
        paymentSessionId: String, paymentRequestId: String, displayMode: String, paymentAmount: AntomAmount, banks: [AntomCashierBank],
        cashierPageUrl: String, paymentSessionExpiryTime: String?
    ) {
        self.paymentSessionId = paymentSessionId
        self.paymentRequestId = paymentRequestId
        self.displayMode = displayMode
        self.paymentAmount = paymentAmount
        self.banks = banks
        self.cashierPageUrl = cashierPageUrl
        self.paymentSessionExpiryTime = paymentSessionExpiryTime
    }
}

/// One bank the cashier offers for a session, with its page.
public struct AntomCashierBank: Codable, Hashable, Sendable {
    public var bankName: String
    public var displayName: String
    public var localName: String
    public var categories: [AntomBankCategory]
    /// The bank's page for this session (HTML), where the customer pays.
    public var bankPageUrl: String

    public init(bankName: String, displayName: String, localName: String, categories: [AntomBankCategory], bankPageUrl: String) {
        self.bankName = bankName
        self.displayName = displayName
        self.localName = localName
        self.categories = categories
        self.bankPageUrl = bankPageUrl
    }
}

/// Antom's times: ISO 8601 with an offset, `2026-11-23T10:00:00+08:00` (UTC here).
public enum AntomTime {
    public static func string(_ date: Date) -> String { ISO8601Seconds.string(date) }

    public static func date(_ text: String) -> Date? {
        ISO8601Milliseconds.commonForm(text, fractionAllowed: false) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
