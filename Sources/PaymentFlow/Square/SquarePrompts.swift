import CheckoutModel
import Foundation
import ProviderWire

/// What Square's screens ask the person at the terminal: the tip screen, the card reader, and
/// what to do with a delayed payment.
enum SquarePrompts {
    static let tipID = "tip"
    static let readerID = "reader"
    static let authorizedID = "authorized"

    /// Tip choices as percentages of the amount, like the SDK's tip screen.
    static let tipPercents = [0, 10, 15, 20]

    static func tip(amount: Money) -> CustomerPrompt {
        let choices = tipPercents.map { percent -> PromptChoice in
            let tip = (try? amount.portion(basisPoints: percent * 100)) ?? .zero(amount.currency)
            return PromptChoice(id: String(tip.minorUnits), label: percent == 0 ? "No tip" : "\(percent)%", detail: tip.formatted)
        }
        let none = PromptAnswer(action: "add", choice: "0")
        return CustomerPrompt(
            id: tipID, title: "Add a tip?", lines: ["Amount \(amount.formatted)"], choices: choices,
            actions: [PromptAction(key: "Enter", label: "choose", id: "add")],
            scripted: ["approve": none, "decline": none, "none": none, "approve-after": none], choiceFlag: "tip")
    }

    /// The reader; with `giftCard` (partial authorization accepted) the gift card is offered
    /// too, and a scripted customer who approves presents it.
    static func reader(total: Money, keyedEntryAllowed: Bool, giftCard: Bool = false) -> CustomerPrompt {
        let choices = cardChoices(currency: total.currency, giftCard: giftCard)
        var actions = [
            PromptAction(key: "t", label: "tap", id: SquareEntryMethod.tap.rawValue),
            PromptAction(key: "i", label: "insert", id: SquareEntryMethod.insert.rawValue),
            PromptAction(key: "s", label: "swipe", id: SquareEntryMethod.swipe.rawValue),
        ]
        var lines = ["Tap, insert or swipe a card"]
        if keyedEntryAllowed {
            actions.append(PromptAction(key: "k", label: "key in", id: SquareEntryMethod.keyed.rawValue))
            lines.append("K: key in a card")
        }
        return CustomerPrompt(
            id: readerID, title: "Total \(total.formatted)", lines: lines, choices: choices, actions: actions,
            scripted: [
                "approve": PromptAnswer(action: SquareEntryMethod.tap.rawValue, choice: giftCard ? SquareTestCard.giftCard.name : "ok"),
                "approve-after": PromptAnswer(action: SquareEntryMethod.tap.rawValue, choice: giftCard ? SquareTestCard.giftCard.name : "ok"),
                "decline": PromptAnswer(action: SquareEntryMethod.tap.rawValue, choice: "declined"),
            ], actionFlag: "entry", choiceFlag: "card", appendingFlags: ["card"])
    }

    /// The test cards a reader offers (both prompt modes); with `giftCard` the gift card too.
    static func cardChoices(currency: Currency, giftCard: Bool) -> [PromptChoice] {
        (giftCard ? SquareTestCard.known : SquareTestCard.all).map { card in
            PromptChoice(
                id: card.name, label: "\(SquareReceipt.brandName(card.card.cardBrand)) •••• \(card.card.last4 ?? "????") · \(card.name)",
                detail: card.errorCode ?? card.balance.map { "holds \(Money(minorUnits: $0, currency: currency).formatted)" } ?? "approves")
        }
    }

    static func authorized(payment: SquarePayment, deadline: Date?) -> CustomerPrompt {
        let action = payment.delayAction ?? "CANCEL"
        return CustomerPrompt(
            id: authorizedID, title: "Authorized \(SquareReceipt.money(payment.totalMoney) ?? "")",
            lines: ["\(SquareReceipt.brandName(payment.cardDetails?.card?.cardBrand)) •••• \(payment.cardDetails?.card?.last4 ?? "")",
                    "When the delay passes Square will \(action.lowercased()) it"],
            actions: [PromptAction(key: "c", label: "complete", id: SquarePaymentSettings.Then.complete.rawValue),
                      PromptAction(key: "x", label: "cancel", id: SquarePaymentSettings.Then.cancel.rawValue),
                      PromptAction(key: "t", label: "add tip", id: addTipAction)],
            deadline: deadline,
            scripted: [
                "approve": PromptAnswer(action: SquarePaymentSettings.Then.complete.rawValue),
                "approve-after": PromptAnswer(action: SquarePaymentSettings.Then.complete.rawValue),
                "decline": PromptAnswer(action: SquarePaymentSettings.Then.cancel.rawValue),
            ], actionFlag: "then", abandonable: false, appendingFlags: ["then"], unrecordedActions: [addTipAction])
    }
}
