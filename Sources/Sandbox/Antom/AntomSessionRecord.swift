import Foundation
import ProviderWire

/// One payment session of the Antom sandbox: the create request it came from, where its customer
/// is, and what the notifications about it became.
struct AntomSessionRecord: Sendable, Codable, Equatable {
    /// Why a session was closed unpaid (CANCELLED, ORDER_IS_CLOSED).
    enum Closure: String, Codable, Sendable {
        /// Its expiry time passed before the customer paid.
        case expired
        /// The customer left the cashier without paying.
        case abandoned
        /// A newer session for the same order replaced it.
        case superseded
    }

    let id: String
    let clientID: String
    let request: AntomCreatePaymentSessionRequest
    /// The create body, decoded and re-encoded with sorted keys: an identical request however it is spaced.
    let fingerprint: Data
    let mode: AntomDisplayMode
    let minorUnits: Int
    let createdAt: Date
    let expiresAt: Date
    /// The sandbox's origin as the creating client reached it.
    let base: String
    let sequence: Int
    /// The answer to the create, replayed for an identical one.
    var response = AntomCreatePaymentSessionResponse(result: .success)

    var status: AntomPaymentStatus = .processing
    var paymentId: String?
    var paymentTime: Date?
    var resultCode: String?
    var resultMessage: String?
    var closure: Closure?
    /// The session that replaced this one (closure `superseded`).
    var supersededBy: String?
    /// The bank the customer paid (or failed) with.
    var bank: String?
    /// When a PENDING payment (magic 8001) becomes SUCCESS.
    var confirmAt: Date?
    /// The same confirmation by the wall clock: the bank's delay is real time, whatever the
    /// sandbox's clock (a test's manual one stands still). Nil in sessions kept before it.
    var confirmsBy: Date?
    /// Magic 8202 answered its one REQUEST_TRAFFIC_EXCEED_LIMIT.
    var trafficLimitAnswered = false
    var notifications: [AntomNotificationRecord] = []

    var paymentRequestId: String { request.paymentRequestId }
    var referenceOrderId: String { request.order.referenceOrderId }
    var amount: AntomAmount { request.paymentAmount }
    var currency: String { request.paymentAmount.currency }
    /// The bank has paid: the order is taken (SUCCESS, or PENDING on its way there).
    var holdsOrder: Bool { status == .success || status == .pending }
    /// Nothing more can happen to it.
    var isDecided: Bool { status.isFinal }

    /// The banks the cashier offers for it (the component filters them for web clients itself).
    var banks: [AntomBank] { AntomBankCatalogue.banks(for: mode, currency: currency, client: .app) }

    func cashierURL(base: String) -> String { "\(base)/sandbox/antom/cashier/\(id)" }

    /// What inquiryPayment answers about it.
    var inquiry: AntomInquiryPaymentResponse {
        let failed = status == .fail || status == .cancelled
        return AntomInquiryPaymentResponse(
            result: .success, paymentStatus: status.rawValue, paymentRequestId: paymentRequestId, paymentId: paymentId, paymentAmount: amount,
            paymentCreateTime: AntomTime.string(createdAt), paymentTime: paymentTime.map(AntomTime.string),
            paymentResultCode: failed ? resultCode : nil, paymentResultMessage: failed ? resultMessage : nil)
    }

    /// What a notification about its present state says: PAYMENT_PENDING while PENDING, else
    /// PAYMENT_RESULT with S for SUCCESS (F PROCESS_FAIL for magic 8003) and F with the reason otherwise.
    var notification: AntomNotifyPayment {
        let result: AntomResult
        switch status {
        case .success where minorUnits == AntomMagic.notificationDisagrees:
            result = AntomResult(resultCode: "PROCESS_FAIL", resultStatus: "F", resultMessage: "The payment failed.")
        case .success:
            result = .success
        case .pending, .processing:
            result = AntomResult(resultCode: "PAYMENT_IN_PROCESS", resultStatus: "U", resultMessage: "The payment is being processed.")
        case .fail, .cancelled:
            result = AntomResult(resultCode: resultCode ?? "PROCESS_FAIL", resultStatus: "F", resultMessage: resultMessage)
        }
        return AntomNotifyPayment(
            notifyType: status == .pending ? "PAYMENT_PENDING" : "PAYMENT_RESULT", result: result, paymentRequestId: paymentRequestId,
            paymentId: paymentId, paymentAmount: amount, paymentCreateTime: AntomTime.string(createdAt),
            paymentTime: paymentTime.map(AntomTime.string))
    }

    // MARK: - Transitions (each from PROCESSING, or PENDING for `confirm`)

    mutating func succeed(bank: String, at time: Date) {
        status = .success
        self.bank = bank
        paymentId = paymentId ?? AntomIDs.paymentID(at: time)
        paymentTime = time
        confirmAt = nil
    }

    /// The bank paid but Antom says PENDING until `confirmAt`.
    mutating func pend(bank: String, at time: Date, confirmAt: Date) {
        status = .pending
        self.bank = bank
        paymentId = AntomIDs.paymentID(at: time)
        self.confirmAt = confirmAt
        confirmsBy = Date().addingTimeInterval(confirmAt.timeIntervalSince(time))
    }

    mutating func fail(bank: String?, code: String, message: String, at time: Date) {
        status = .fail
        self.bank = bank
        paymentId = AntomIDs.paymentID(at: time)
        paymentTime = time
        resultCode = code
        resultMessage = message
    }

    mutating func close(_ closure: Closure, supersededBy newer: String? = nil) {
        status = .cancelled
        self.closure = closure
        supersededBy = newer
        resultCode = "ORDER_IS_CLOSED"
        resultMessage =
            switch closure {
            case .expired: "The order is closed: the payment session expired unpaid."
            case .abandoned: "The order is closed: the customer left the cashier without paying."
            case .superseded: "The order is closed: a newer payment session for the same order replaced this one."
            }
    }
}

/// One notification sent about a session, and how its delivery went (the ledger shows them).
struct AntomNotificationRecord: Codable, Hashable, Sendable {
    let notifyType: String
    let resultCode: String
    let resultStatus: String
    let url: String
    /// `sandbox`, or `wrong-key` for magic 8002.
    let signedWith: String
    var deliveryID: String?
    /// pending, delivered, failed or dropped (WebhookDeliveryLog's outcomes).
    var outcome: String = "pending"
    var attempts = 0
    var lastStatus: Int?
    var lastError: String?

    enum CodingKeys: String, CodingKey {
        case url, outcome, attempts
        case notifyType = "notify_type"
        case resultCode = "result_code"
        case resultStatus = "result_status"
        case signedWith = "signed_with"
        case deliveryID = "delivery_id"
        case lastStatus = "last_status"
        case lastError = "last_error"
    }
}

/// A notification to send: what the store hands its sink after a session changed.
struct AntomNotice: Sendable {
    let sessionID: String
    /// Its place in the session's `notifications`.
    let index: Int
    let clientID: String
    let url: String
    let body: AntomNotifyPayment
    let wrongKey: Bool
}

/// Antom-shaped identifiers.
enum AntomIDs {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// A paymentSessionId: URL-safe, so it can sit in cashier paths as it is.
    static func sessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "SBXSESSION" + String((0..<30).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// A paymentId as Antom's look: the day (`20261123`) then digits.
    static func paymentID(at time: Date) -> String {
        let day = CivilDate.split(time).date
        var generator = SystemRandomNumberGenerator()
        let digits = String((0..<24).map { _ in "0123456789".randomElement(using: &generator)! })
        let (year, month, date) = (day.year, day.month, day.day)
        return "\(year)" + (month < 10 ? "0" : "") + "\(month)" + (date < 10 ? "0" : "") + "\(date)" + digits
    }
}
