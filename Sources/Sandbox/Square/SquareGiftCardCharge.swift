import Foundation
import ProviderWire

extension SquareCreatePayment.Valid {
    /// The same request, for other amounts (a gift card's partial authorization).
    func charging(amount: SquareMoney, tip: SquareMoney?) -> SquareCreatePayment.Valid {
        var valid = SquareCreatePayment.Valid(
            sourceID: sourceID, idempotencyKey: idempotencyKey, amount: amount, tip: tip, appFee: appFee, autocomplete: autocomplete,
            delaySeconds: delaySeconds, delayAction: delayAction, referenceID: referenceID, orderID: orderID, locationID: locationID,
            note: note, offline: offline)
        valid.acceptPartialAuthorization = acceptPartialAuthorization
        return valid
    }
}

extension SquareCreatePayment {
    /// What a gift card pays of a request: all of it when its balance covers amount plus tip;
    /// else, with `accept_partial_authorization`, an APPROVED payment of the balance (the amount
    /// first, then the tip: `amount_money` less than asked, as Square documents for a $20 request
    /// on a $5 gift card), and without it a decline, INSUFFICIENT_FUNDS. A card pays as asked.
    static func giftCardCharge(_ valid: Valid, source: Source) -> (Valid, Source) {
        guard let balance = source.balance, source.errorCode == nil else { return (valid, source) }
        let asked = valid.amount.amount + (valid.tip?.amount ?? 0)
        guard asked > balance else { return (valid, source) }
        guard valid.acceptPartialAuthorization, balance > 0 else {
            var declined = source
            declined.errorCode = "INSUFFICIENT_FUNDS"
            return (valid, declined)
        }
        let amount = min(valid.amount.amount, balance)
        let tip = valid.tip.map { SquareMoney(amount: min($0.amount, balance - amount), currency: $0.currency) }
        return (valid.charging(amount: SquareMoney(amount: amount, currency: valid.amount.currency), tip: tip), source)
    }
}
