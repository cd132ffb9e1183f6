import CheckoutModel

/// Steps outside the SDK states (STATES.md): a provider's steps before its request exists
/// (Afterpay's `token`, `signing`) or after `approved` (`validating`, `capturing`), and how
/// the settlement ended.
public enum CheckoutPhase: Hashable, Sendable {
    /// A provider step in progress, by the name its descriptor lists.
    case step(String)
    case completed(SettlementReceipt)
    case settlementFailed(SettlementFailure)

    public var name: String {
        switch self {
        case .step(let name): name
        case .completed: "completed"
        case .settlementFailed: "settlementFailed"
        }
    }

    /// The provider's facts of a finished settlement (Adyen: psp_reference, result_code, …).
    public var details: [String: String] {
        switch self {
        case .step: [:]
        case .completed(let receipt): receipt.details
        case .settlementFailed(let failure): failure.details
        }
    }

    /// Settlement is over, one way or the other.
    public var isFinal: Bool {
        switch self {
        case .step: false
        case .completed, .settlementFailed: true
        }
    }
}

/// A settled payment: the provider's payment id and, when it says, who paid.
public struct SettlementReceipt: Hashable, Sendable {
    public var paymentID: String
    public var payer: String?
    /// Provider facts for the receipt and `--json` (`psp_reference`, `result_code`, …).
    public var details: [String: String]
    /// The banner's sentence when it is not the method's usual one (a payment canceled as asked).
    public var headline: String?
    /// The printed receipt, line by line (Square's); empty when the provider has none.
    public var printout: [String]
    /// Provider facts that are lists of records, for the `--json` summary (the wallet's
    /// `summary_items`: what the customer saw on the sheet).
    public var lists: [String: [[String: String]]]
    /// Whether money moved: false when the authorization was voided (cancelled as asked, through
    /// the payment handle, or by the provider's delay action), so the screen never says "paid".
    public var charged: Bool
    /// What the payment came to in the end, when the provider says and it can differ from what
    /// was asked (Square: a tip added after authorization). The banner and result line show it.
    public var total: Money?

    public init(
        paymentID: String, payer: String? = nil, details: [String: String] = [:], headline: String? = nil, printout: [String] = [],
        lists: [String: [[String: String]]] = [:], charged: Bool = true, total: Money? = nil
    ) {
        self.charged = charged
        self.total = total
        self.paymentID = paymentID
        self.payer = payer
        self.details = details
        self.headline = headline
        self.printout = printout
        self.lists = lists
    }
}

/// Why settlement failed: the provider declined it (the customer's money was not taken, exit 1)
/// or something broke (exit 2). Typed, never read back from the text.
public struct SettlementFailure: Hashable, Sendable, CustomStringConvertible {
    public var declined: Bool
    public var reason: String
    /// Provider facts for the banner and `--json` (`result_code`, `refusal_reason`, …).
    public var details: [String: String]

    public init(declined: Bool, reason: String, details: [String: String] = [:]) {
        self.declined = declined
        self.reason = reason
        self.details = details
    }

    public var description: String { reason }
}

/// What a provider's settlement came to.
public enum SettlementOutcome: Hashable, Sendable {
    case completed(SettlementReceipt)
    case failed(SettlementFailure)

    var phase: CheckoutPhase {
        switch self {
        case .completed(let receipt): .completed(receipt)
        case .failed(let failure): .settlementFailed(failure)
        }
    }
}
