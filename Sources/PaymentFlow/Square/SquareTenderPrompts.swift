import CheckoutModel
import Foundation
import ProviderWire

/// The prompts of issue 28's Square paths: another card after a decline (same reference), the
/// remainder of a gift card's partial authorization on a second card, and the tip added to an
/// authorized payment.
extension SquarePrompts {
    static let anotherCardID = "another-card"
    static let remainderID = "remainder"
    static let addTipID = "add-tip"
    /// The authorized prompt's action that adds a tip (UpdatePayment) before completing.
    static let addTipAction = "tip"
    static let anotherCardAction = "another"
    static let giveUpAction = "give-up"
    /// The add-tip prompt's way back to the authorized prompt (no tip added).
    static let backAction = "back"

    /// After a decline read at the reader: try another card (the same reference id, a new
    /// idempotency key), or give up. A scripted customer gives up, as before this prompt existed.
    static func anotherCard(code: String, total: Money, reference: String) -> CustomerPrompt {
        let giveUp = PromptAnswer(action: giveUpAction)
        return CustomerPrompt(
            id: anotherCardID, title: "Declined: \(code)",
            lines: ["Total \(total.formatted) · reference \(reference)", "Another card keeps the reference; a new idempotency key"],
            actions: [PromptAction(key: "a", label: "try another card", id: anotherCardAction), PromptAction(key: "g", label: "give up", id: giveUpAction)],
            scripted: ["approve": giveUp, "approve-after": giveUp, "decline": giveUp, "none": giveUp])
    }

    /// The reader again, for what the gift card (or an earlier card) did not cover.
    static func remainder(_ remaining: Money, paid: Money, keyedEntryAllowed: Bool) -> CustomerPrompt {
        var prompt = reader(total: remaining, keyedEntryAllowed: keyedEntryAllowed)
        prompt.id = remainderID
        markRemainder(&prompt, remaining: remaining, paid: paid)
        // The card is recorded after the first (`card: gift,ok`); how it was presented is the first's.
        prompt.actionFlag = nil
        return prompt
    }

    /// A reader prompt (the SDK's or the merchant-drawn one) asking for the remainder.
    static func markRemainder(_ prompt: inout CustomerPrompt, remaining: Money, paid: Money) {
        prompt.title = "Remainder \(remaining.formatted)"
        // Under the merchant-drawn prompt's own first line, else first.
        let at = prompt.lines.first == SquareCustomPrompt.headline ? 1 : 0
        prompt.lines.insert("Partly paid: \(paid.formatted) approved; present another card", at: at)
    }

    /// The tip added to an authorized payment: percentages of the sale's amount, like the tip screen.
    static func addTip(amount: Money, current: Money) -> CustomerPrompt {
        var prompt = tip(amount: amount)
        prompt.id = addTipID
        prompt.title = "Add a tip to the authorized payment?"
        prompt.lines = ["Amount \(amount.formatted) · tip now \(current.formatted)", "Square's UpdatePayment changes the tip; the total follows"]
        // Recorded as `then: tip:676`; the authorized prompt's answer then adds `,complete`.
        prompt.choiceFlag = "then"
        prompt.choicePrefix = "tip:"
        // A payment is authorized: Esc must not walk away from it; b goes back to its prompt.
        prompt.abandonable = false
        prompt.actions.append(PromptAction(key: "b", label: "back", id: backAction))
        prompt.unrecordedActions.insert(backAction)
        return prompt
    }
}

extension SquareAdapter {
    /// Issue 28's prompts and the split sale's receipt, as the screen shows them.
    public static func anotherCardPrompt(code: String, total: Money, reference: String) -> CustomerPrompt {
        SquarePrompts.anotherCard(code: code, total: total, reference: reference)
    }
    public static func remainderPrompt(_ remaining: Money, paid: Money, keyedEntryAllowed: Bool) -> CustomerPrompt {
        SquarePrompts.remainder(remaining, paid: paid, keyedEntryAllowed: keyedEntryAllowed)
    }
    public static func addTipPrompt(amount: Money, current: Money) -> CustomerPrompt {
        SquarePrompts.addTip(amount: amount, current: current)
    }
    public static func salePrintout(_ payments: [SquarePayment], merchant: String) -> [String] {
        SquareReceipt.salePrintout(payments, merchant: merchant)
    }
}
