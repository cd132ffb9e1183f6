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
    /// What `ISO8601FormatStyle` writes with `Z` as `+00:00`, written directly: every signed
    /// request and answer carries one, and the format style (with the replacement through
    /// NSString) took as long as a third of an RSA signature.
    public static func string(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // Before 1970 or after 9999 (never a request's time; before 1582 its calendar is the
        // Julian) the format style says it as it does.
        guard seconds >= 0, seconds < endSecond else {
            return date.formatted(Date.ISO8601FormatStyle()).replacingOccurrences(of: "Z", with: "+00:00")
        }
        let whole = Int(seconds)
        let (days, secondOfDay) = (whole.floorDivided(by: 86_400), whole.floorModulo(86_400))
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = ""
        text.reserveCapacity(25)
        func append(_ value: Int, digits: Int) {
            let written = String(value)
            text += String(repeating: "0", count: max(0, digits - written.count)) + written
        }
        append(year, digits: 4)
        text += "-"
        append(month, digits: 2)
        text += "-"
        append(day, digits: 2)
        text += "T"
        append(secondOfDay / 3_600, digits: 2)
        text += ":"
        append(secondOfDay / 60 % 60, digits: 2)
        text += ":"
        append(secondOfDay % 60, digits: 2)
        return text + "+00:00"
    }

    /// 10000-01-01T00:00:00Z in seconds since 1970.
    static let endSecond: Double = 253_402_300_800

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's civil_from_days).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    public static func date(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(text)
    }
}

extension Int {
    /// Division rounding toward negative infinity (days before 1970 stay whole days).
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(_ divisor: Int) -> Int { self - floorDivided(by: divisor) * divisor }
}
