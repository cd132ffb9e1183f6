import Foundation
import ProviderWire

/// A card payment taken while Square could not be reached (`offline-capable` mode): kept on
/// this machine until `SquareOfflineUploader` hands it to Square, and kept after that too, with
/// what Square made of it. Nothing here is ever dropped: a declined upload stays, as declined.
public struct SquareOfflinePayment: Sendable, Hashable {
    /// Where the payment stands.
    public enum State: Sendable, Hashable {
        /// Waiting for Square to answer again.
        case queued
        /// Square took it: its payment id and status (COMPLETED, APPROVED, …).
        case uploaded(paymentID: String, status: String)
        /// Square refused it: the first error's code (GENERIC_DECLINE, …) and detail.
        case declined(code: String, detail: String)

        /// `queued`, `uploaded` or `declined`: how a store spells the state.
        public var name: String {
            switch self {
            case .queued: "queued"
            case .uploaded: "uploaded"
            case .declined: "declined"
            }
        }
    }

    /// `offline-` and 8 lowercase hex digits: what the screen shows until Square has a payment id.
    public var localID: String
    /// When the reader took the payment; kept to the millisecond (as a store keeps it), and sent
    /// to Square as `offline_payment_details.client_created_at`.
    public var createdAt: Date {
        didSet { createdAt = Self.toMillisecond(createdAt) }
    }
    /// The exact CreatePayment body to upload, its idempotency key and reference id included:
    /// every attempt sends the same key, so an upload retried after a crash never charges twice.
    public var request: SquareCreatePaymentRequest
    public var cardBrand: String?
    public var last4: String?
    /// Square's spelling (`CONTACTLESS`, `EMV`, `SWIPED`, `KEYED`).
    public var entryMethod: String?
    public var state: State

    public init(
        localID: String = SquareOfflinePayment.newLocalID(), createdAt: Date = Date(), request: SquareCreatePaymentRequest,
        cardBrand: String?, last4: String?, entryMethod: String?, state: State = .queued
    ) {
        self.localID = localID
        self.createdAt = Self.toMillisecond(createdAt)
        self.request = request
        self.cardBrand = cardBrand
        self.last4 = last4
        self.entryMethod = entryMethod
        self.state = state
    }

    /// A fresh local id: `offline-` and 8 random lowercase hex digits.
    public static func newLocalID() -> String {
        let digits = String(UInt32.random(in: .min ... .max), radix: 16)
        return "offline-" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Milliseconds since 1970, as a store writes `createdAt` (a date out of any sane range,
    /// such as one built from infinity, is clamped rather than trapping).
    public var createdAtMilliseconds: Int64 {
        let milliseconds = (createdAt.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return milliseconds > 0 ? Self.millisecondRange.upperBound : Self.millisecondRange.lowerBound }
        return Int64(min(max(milliseconds, Double(Self.millisecondRange.lowerBound)), Double(Self.millisecondRange.upperBound)))
    }

    /// ±9·10¹⁵ ms (about 285,000 years either side of 1970): exact as a Double and as an Int64.
    public static let millisecondRange: ClosedRange<Int64> = -9_000_000_000_000_000...9_000_000_000_000_000

    /// The date a store's milliseconds stand for (equal to the `createdAt` they were taken from).
    public static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    private static func toMillisecond(_ date: Date) -> Date {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) <= 9e15 else { return date }
        return Self.date(milliseconds: Int64(milliseconds))
    }
}

/// Where offline payments are kept. Every write is durable when it returns: a crash or a
/// SIGKILL right after `enqueue` loses nothing.
public protocol SquareOfflineStore: Sendable {
    /// Keeps a new payment (normally `.queued`); a local id already kept is an error.
    func enqueue(_ payment: SquareOfflinePayment) async throws
    /// Every payment kept, whatever its state, oldest first.
    func all() async throws -> [SquareOfflinePayment]
    func markUploaded(localID: String, paymentID: String, status: String) async throws
    func markDeclined(localID: String, code: String, detail: String) async throws
}

extension SquareOfflineStore {
    /// The payments still waiting for Square, oldest first.
    public func queued() async throws -> [SquareOfflinePayment] {
        try await all().filter { $0.state == .queued }
    }
}
