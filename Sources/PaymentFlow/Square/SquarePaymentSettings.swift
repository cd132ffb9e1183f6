import Foundation
import ProviderWire

/// How a Square payment is taken: the SDK's PaymentParameters and PromptParameters, and what
/// the person at the terminal decided up front (`checkout run`'s `--card`, `--then`, …).
public struct SquarePaymentSettings: Sendable, Hashable {
    /// What happens to a delayed (autocomplete off) payment once it is APPROVED.
    public enum Then: String, Sendable, Hashable, CaseIterable {
        case complete, cancel
        /// Wait for Square to apply the delay action by itself.
        case expire
    }

    /// The SDK's processing modes: `onlineOnly`, `autoDetect` (offline when Square cannot be
    /// reached) and `offlineOnly` (queued here without trying Square).
    public enum ProcessingMode: String, Sendable, Hashable, CaseIterable {
        case online
        /// Taken offline and queued on this machine when Square cannot be reached (`auto-detect`).
        case offlineCapable = "offline-capable"
        /// Queued on this machine at once; Square is not tried (`offline-only`).
        case offlineOnly = "offline-only"
    }

    /// PromptParameters.mode: Square's own prompt, or one the app draws from what the SDK reports.
    public enum PromptMode: String, Sendable, Hashable, CaseIterable {
        case `default`, custom
    }

    /// Tip in minor units; nil asks the customer on the tip screen.
    public var tip: Int?
    public var appFee: Int?
    public var autocomplete: Bool
    /// ISO 8601 duration (`PT10M`), only with autocomplete off.
    public var delayDuration: String?
    /// `CANCEL` (Square's default) or `COMPLETE`.
    public var delayAction: String?
    public var then: Then?
    public var processingMode: ProcessingMode
    /// The test card to present; nil asks at the reader.
    public var card: SquareTestCard?
    public var entry: SquareEntryMethod?
    /// PromptParameters' additional method `keyed`; the merchant may remove it.
    public var keyedEntryAllowed: Bool
    public var note: String?
    public var orderID: String?
    /// Square's own sandbox knows only the documented (keyed) test nonces, not this project's
    /// reader nonces: a tap, insert or swipe is sent as the keyed nonce of the same card.
    public var documentedNoncesOnly = false
    /// A tip added once the payment is APPROVED (UpdatePayment), before `then` (`--then tip:300,complete`).
    public var tipAfterAuthorization: Int?
    /// `accept_partial_authorization`: a gift card may approve less; the rest is taken on more cards.
    public var acceptPartialAuthorization = false
    /// The cards presented next, in order: after a decline (same reference, new idempotency
    /// key) or for the remainder of a partial authorization (`--card gift,ok`).
    public var nextCards: [SquareTestCard] = []
    /// PromptParameters.mode (`--prompt`).
    public var promptMode = PromptMode.default
    /// What happens to the simulated reader (or the payment) before the card is presented (`--reader-steps`).
    public var readerSteps: [SquareReader.Change] = []

    public init(
        tip: Int? = nil, appFee: Int? = nil, autocomplete: Bool = true, delayDuration: String? = nil, delayAction: String? = nil,
        then: Then? = nil, processingMode: ProcessingMode = .online, card: SquareTestCard? = nil, entry: SquareEntryMethod? = nil,
        keyedEntryAllowed: Bool = true, note: String? = nil, orderID: String? = nil
    ) {
        self.tip = tip
        self.appFee = appFee
        self.autocomplete = autocomplete
        self.delayDuration = delayDuration
        self.delayAction = delayAction
        self.then = then
        self.processingMode = processingMode
        self.card = card
        self.entry = entry
        self.keyedEntryAllowed = keyedEntryAllowed
        self.note = note
        self.orderID = orderID
    }

    /// The option flags a payment's own options may carry (the screen's choices).
    public static let tipFlag = "tip"

    /// These settings with a payment's options applied.
    public func applying(_ options: [String: String]) -> SquarePaymentSettings {
        var settings = self
        if let tip = options[Self.tipFlag].flatMap(Int.init), tip >= 0 { settings.tip = tip }
        return settings
    }
}
