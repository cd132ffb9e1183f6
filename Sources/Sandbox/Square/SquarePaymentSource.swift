import Foundation
import ProviderWire

extension SquareCreatePayment {
    /// What a `source_id` pays with: the card the payment shows, how it reached Square, and the
    /// decline it comes to (nil: it pays).
    struct Source: Sendable {
        let card: SquareCard
        let entry: SquareEntryMethod
        var errorCode: String?
        /// A chip read's application name and AID.
        let application: (name: String, identifier: String)?
        /// A keyed card's CVV and postal code are checked; a wallet's cryptogram stands in for both.
        let checksCVVAndPostalCode: Bool
        /// Spent by the payment it makes (a wallet nonce); the documented test nonces pay again and again.
        let singleUse: Bool
        /// A gift card's balance (minor units): what it can approve at most.
        var balance: Int? = nil

        init(testCard: SquareTestCard, entry: SquareEntryMethod) {
            card = testCard.card
            self.entry = entry
            errorCode = testCard.errorCode
            balance = testCard.balance
            application = entry.readsChip && testCard.balance == nil ? (testCard.applicationName, testCard.applicationIdentifier) : nil
            checksCVVAndPostalCode = entry == .keyed
            singleUse = false
        }

        init(tokenized: TokenizedCard) {
            card = SquareCard(cardBrand: tokenized.squareBrand, last4: tokenized.last4)
            // Card not present, as Square records a wallet payment taken online.
            entry = .keyed
            // The merchant's capabilities (carried in the token) do not take this card or cryptogram.
            errorCode = tokenized.notSupported != nil ? "CARD_NOT_SUPPORTED" : tokenized.isDeclined ? "GENERIC_DECLINE" : nil
            application = nil
            checksCVVAndPostalCode = false
            singleUse = true
        }
    }

    /// A genuine device wallet nonce (one that is not is not found, as Square answers a nonce it
    /// never issued): an expired one is CARD_TOKEN_EXPIRED; one for another total (amount_money
    /// plus tip_money) is refused naming amount_money.
    static func tokenizedSource(_ card: TokenizedCard, paying valid: Valid, now: Date, checkingExpiryAndAmount: Bool) throws(SquareRejection) -> Source {
        let total = valid.amount.amount + (valid.tip?.amount ?? 0)
        if checkingExpiryAndAmount, let problem = card.problem(paying: total, currency: valid.amount.currency, at: now) {
            switch problem {
            case .expired:
                throw SquareRejection.invalid("CARD_TOKEN_EXPIRED", "Card nonce expired; please request a new nonce (\(problem)).", field: "source_id")
            case .amountMismatch:
                throw SquareRejection.invalid(
                    "INVALID_VALUE", "amount_money (plus tip_money) must be the total the wallet authorized: \(problem).", field: "amount_money")
            }
        }
        return Source(tokenized: card)
    }
}

extension TokenizedCard {
    /// Square's `card_brand`.
    var squareBrand: String {
        switch network {
        case "amex": "AMERICAN_EXPRESS"
        // Maestro is Mastercard's debit brand; Square has no brand of its own for it.
        case "maestro": "MASTERCARD"
        // DISCOVER, JCB, MASTERCARD, VISA: the network's name.
        default: network.uppercased()
        }
    }
}
