/// The sandbox's test cards: the nonce Square's sandbox documents for each outcome, and the card
/// an emulated reader reads. Keyed entry sends the documented nonce (`cnon:card-nonce-ok`);
/// a tap, insert or swipe sends the reader's nonce for the same card
/// (`cnon:reader-contactless-ok`), which only this project's sandbox knows.
public struct SquareTestCard: Hashable, Sendable {
    /// How `--card` spells it: ok, declined, cvv, postal, expired, used, insufficient.
    public var name: String
    /// The sandbox nonce's outcome word (`card-nonce-<outcome>`).
    public var outcome: String
    /// What the payment comes to: nil for success, else Square's error code.
    public var errorCode: String?
    public var card: SquareCard
    public var applicationName: String
    public var applicationIdentifier: String
    /// What a gift card holds (minor units, any currency): a payment for more is approved for
    /// this much with `accept_partial_authorization`, else declined INSUFFICIENT_FUNDS. nil: a card.
    public var balance: Int? = nil

    public var nonce: String { "cnon:card-nonce-\(outcome)" }

    /// The nonce an emulated reader sends for this card read by `entry`.
    public func nonce(entry: SquareEntryMethod) -> String {
        entry == .keyed ? nonce : "cnon:reader-\(entry.readerWord)-\(outcome)"
    }

    public static let all: [SquareTestCard] = [
        SquareTestCard(
            name: "ok", outcome: "ok", errorCode: nil,
            card: SquareCard(cardBrand: "VISA", last4: "1111", expMonth: 11, expYear: 2029, cardholderName: "Ada Lovelace"),
            applicationName: "VISA CREDIT", applicationIdentifier: "A0000000031010"),
        SquareTestCard(
            name: "declined", outcome: "declined", errorCode: "GENERIC_DECLINE",
            card: SquareCard(cardBrand: "MASTERCARD", last4: "4444", expMonth: 8, expYear: 2030, cardholderName: "Grace Hopper"),
            applicationName: "MASTERCARD", applicationIdentifier: "A0000000041010"),
        SquareTestCard(
            name: "cvv", outcome: "rejected-cvv", errorCode: "CVV_FAILURE",
            card: SquareCard(cardBrand: "AMERICAN_EXPRESS", last4: "8431", expMonth: 3, expYear: 2031, cardholderName: "Alan Turing"),
            applicationName: "AMERICAN EXPRESS", applicationIdentifier: "A00000002501"),
        SquareTestCard(
            name: "postal", outcome: "rejected-postalcode", errorCode: "ADDRESS_VERIFICATION_FAILURE",
            card: SquareCard(cardBrand: "DISCOVER", last4: "1117", expMonth: 6, expYear: 2028, cardholderName: "Katherine Johnson"),
            applicationName: "DISCOVER", applicationIdentifier: "A0000001523010"),
        SquareTestCard(
            name: "expired", outcome: "rejected-expiration", errorCode: "INVALID_EXPIRATION",
            card: SquareCard(cardBrand: "VISA", last4: "0069", expMonth: 1, expYear: 2020, cardholderName: "Edsger Dijkstra"),
            applicationName: "VISA DEBIT", applicationIdentifier: "A0000000032010"),
        SquareTestCard(
            name: "used", outcome: "already-used", errorCode: "CARD_TOKEN_USED",
            card: SquareCard(cardBrand: "VISA", last4: "1111", expMonth: 11, expYear: 2029, cardholderName: "Ada Lovelace"),
            applicationName: "VISA CREDIT", applicationIdentifier: "A0000000031010"),
        SquareTestCard(
            name: "insufficient", outcome: "insufficient-funds", errorCode: "INSUFFICIENT_FUNDS",
            card: SquareCard(cardBrand: "MASTERCARD", last4: "9995", expMonth: 9, expYear: 2030, cardholderName: "Barbara Liskov"),
            applicationName: "MASTERCARD DEBIT", applicationIdentifier: "A0000000043060"),
    ]

    /// The sandbox's gift card (ours: Square documents the gift card number 7783 3200 0000 0000
    /// for its client SDKs but no test value that approves less than asked). It holds $10.00.
    public static let giftCard = SquareTestCard(
        name: "gift", outcome: "gift-card-partial", errorCode: nil,
        card: SquareCard(cardBrand: "SQUARE_GIFT_CARD", last4: "0000", cardholderName: nil),
        applicationName: "SQUARE GIFT CARD", applicationIdentifier: "", balance: 1_000)

    /// Every test card the sandbox knows: the cards and the gift card.
    public static let known = all + [giftCard]

    public static func named(_ name: String) -> SquareTestCard? { known.first { $0.name == name } }

    /// The card and entry method a source id stands for; nil when the sandbox does not know it.
    public static func reading(sourceID: String) -> (card: SquareTestCard, entry: SquareEntryMethod)? {
        if let card = known.first(where: { $0.nonce == sourceID }) { return (card, .keyed) }
        for entry in SquareEntryMethod.allCases where entry != .keyed {
            let prefix = "cnon:reader-\(entry.readerWord)-"
            if sourceID.hasPrefix(prefix), let card = known.first(where: { $0.outcome == sourceID.dropFirst(prefix.count) }) { return (card, entry) }
        }
        return nil
    }
}

/// How the card reached the reader (`card_details.entry_method`).
public enum SquareEntryMethod: String, CaseIterable, Hashable, Sendable {
    case tap, insert, swipe, keyed

    /// Square's spelling.
    public var wire: String {
        switch self {
        case .tap: "CONTACTLESS"
        case .insert: "EMV"
        case .swipe: "SWIPED"
        case .keyed: "KEYED"
        }
    }

    var readerWord: String {
        switch self {
        case .tap: "contactless"
        case .insert: "emv"
        case .swipe: "swiped"
        case .keyed: "keyed"
        }
    }

    /// A chip read (EMV or contactless) carries the application name and AID.
    public var readsChip: Bool { self == .tap || self == .insert }
}
