import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// The restaurant case the seed's delayed capture exists for: a tip added once the payment is
/// APPROVED, by UpdatePayment (`tip_money`, against the payment's `version_token`), before it is
/// completed; and the authorized sale of several payments (the split tender) completed, cancelled
/// or left to its delay action as one.
extension SquareAdapter {
    /// The payment a tip goes on: the last card of the sale (a gift card pays only what it holds).
    static func tipTarget(_ state: AttemptState) -> SquarePayment? { state.tenders.last ?? state.payment }

    /// Stores a payment's new version in the attempt (the first payment or one of the tenders).
    func store(_ payment: SquarePayment, ids: AttemptIdentifiers) {
        guard var state = attempts[ids.number] else { return }
        if state.payment?.id == payment.id { state.payment = payment }
        if let index = state.tenders.firstIndex(where: { $0.id == payment.id }) { state.tenders[index] = payment }
        attempts[ids.number] = state
    }

    /// UpdatePayment with `units` as the tip; a payment changed meanwhile (VERSION_MISMATCH) is
    /// read again and the tip asked once more against its new version. nil when done.
    func addTip(_ units: Int, ids: AttemptIdentifiers) async -> SettlementFailure? {
        guard var state = attempts[ids.number], var target = Self.tipTarget(state) else {
            return SettlementFailure(declined: false, reason: "no Square payment to add a tip to")
        }
        let currency = target.amountMoney?.currency ?? state.total.currency.code
        state.updates += 1
        attempts[ids.number] = state
        let key = Self.key(ids.idempotencyKey, "u\(state.updates)")
        for round in 1...2 {
            do {
                let updated = try await square.updatePayment(
                    id: target.id, tip: SquareMoney(amount: units, currency: currency), versionToken: target.versionToken,
                    idempotencyKey: round == 1 ? key : Self.key(ids.idempotencyKey, "u\(state.updates)v"))
                store(updated, ids: ids)
                notify(
                    "tip-added",
                    "UpdatePayment: tip \(SquareReceipt.money(updated.tipMoney) ?? "?") on \(updated.id); total now \(SquareReceipt.money(updated.totalMoney) ?? "?")")
                return nil
            } catch {
                if round == 1, case .api(_, let body) = error, body.errors.contains(where: { $0.code == "VERSION_MISMATCH" }),
                    let fresh = try? await square.getPayment(id: target.id)
                {
                    notify("version-mismatch", "payment \(target.id) changed since it was read; adding the tip against its new version")
                    target = fresh
                    continue
                }
                return SettlementFailure(
                    declined: false, reason: "the tip could not be added: \(ProviderFailure(error).description); the payment stays authorized",
                    details: SquareReceipt.details(target))
            }
        }
        return nil
    }

    /// The tip screen again, for the authorized payment; nil when the person backs out (`b`).
    /// The percentages are of the sale's amount (every payment of a split sale, without the tip
    /// given before the card was read); the tip goes on the last payment.
    func askTip(ids: AttemptIdentifiers) async -> Int? {
        guard let state = attempts[ids.number], let target = Self.tipTarget(state) else { return nil }
        let currency = state.total.currency
        let current = Money(minorUnits: target.tipMoney?.amount ?? 0, currency: currency)
        let prompt = SquarePrompts.addTip(amount: Self.tipBase(state), current: current)
        guard let answer = await desk.ask(prompt), answer.action != SquarePrompts.backAction,
            let tip = answer.choice.flatMap(Int.init), tip >= 0
        else { return nil }
        return tip
    }

    /// What the tip percentages are of: the sale's total less the tip already in it.
    static func tipBase(_ state: AttemptState) -> Money {
        (try? state.total - state.tip) ?? state.total
    }

    /// The authorized prompt: the payment, or every payment of a split sale and its total.
    func authorizedPrompt(_ state: AttemptState, payment: SquarePayment) -> CustomerPrompt {
        var prompt = SquarePrompts.authorized(payment: payment, deadline: Self.date(payment.delayedUntil))
        if !state.tenders.isEmpty {
            let payments = [state.payment ?? payment] + state.tenders
            prompt.title = "Authorized \(SquareReceipt.money(SquareReceipt.sum(payments)) ?? "") · \(payments.count) payments"
            prompt.lines = payments.map { SquareReceipt.tenderLine($0) } + [prompt.lines.last ?? ""]
        }
        return state.settings.promptMode == .custom ? SquareCustomPrompt.decorated(prompt) : prompt
    }

    /// The receipt's headline once a tip was added after authorization.
    static func tipHeadline(_ state: AttemptState, _ payment: SquarePayment) -> String? {
        guard state.updates > 0, let tip = SquareReceipt.money(payment.tipMoney) else { return nil }
        return "Tip \(tip) added after authorization (UpdatePayment); total \(SquareReceipt.money(payment.totalMoney) ?? "?")."
    }

    // MARK: The split sale settles as one

    /// Completes the sale's payments in order, all or nothing as far as Square allows: at the
    /// first that cannot be completed it stops and `abandon`s the sale, so a failed sale leaves
    /// nothing authorized and charges nothing more.
    func completeSale(_ state: AttemptState) async -> SettlementOutcome {
        let payments = Self.salePayments(state)
        var done: [SquarePayment] = []
        for (index, payment) in payments.enumerated() {
            do { done.append(try await square.completePayment(id: payment.id, versionToken: payment.versionToken)) } catch {
                let current = (try? await square.getPayment(id: payment.id)) ?? payment
                // The complete landed and only its answer was lost (a retry then hears "already
                // COMPLETED"): Square has it completed, so the sale is.
                guard current.status != "COMPLETED" else {
                    done.append(current)
                    notify("complete-confirmed", "completing \(payment.id) answered \(error), but Square has it COMPLETED")
                    continue
                }
                notify("complete-failed", "could not complete \(payment.id): \(error); it is \(current.status)")
                return await abandon(
                    state, payments: done + [current] + payments[(index + 1)...],
                    failure: "\(payment.id): \(ProviderFailure(error).description)")
            }
        }
        return .completed(saleReceipt(done, state: state, headline: "Paid in \(done.count) payments: every one completed."))
    }

    /// A sale whose completion failed: every payment of it still APPROVED is cancelled (the seed:
    /// a payment that "cannot be completed" is cancelled), and the settlement fails saying what
    /// was voided, what was charged before the failure and what is still open.
    func abandon(_ state: AttemptState, payments: [SquarePayment], failure: String) async -> SettlementOutcome {
        var current = state
        current.payment = payments.first
        current.tenders = Array(payments.dropFirst())
        let result = await cancelAll(current)
        let charged = result.payments.filter { $0.status == "COMPLETED" }.map(\.id)
        // What the customer was charged leads (the screen's banner may show only its start); the cause follows.
        var outcome: [String] = []
        if charged.isEmpty && result.failed.isEmpty {
            outcome.append("nothing was charged" + (result.voided.isEmpty ? "" : " (voided \(result.voided.joined(separator: ", ")))"))
        } else {
            if !charged.isEmpty { outcome.append("already charged: \(charged.joined(separator: ", ")) (refund it in the Square Dashboard)") }
            if !result.failed.isEmpty {
                outcome.append("still open: \(result.failed.map(\.id).joined(separator: ", ")) (Square applies its delay action)")
            }
            if !result.voided.isEmpty { outcome.append("voided \(result.voided.joined(separator: ", "))") }
        }
        let reason = "the sale is not complete; \(outcome.joined(separator: "; ")). Could not complete \(failure)"
        let details = state.tenders.isEmpty ? SquareReceipt.details(result.payments[0]) : saleReceipt(result.payments, state: state, headline: "").details
        return .failed(SettlementFailure(declined: false, reason: reason, details: details))
    }

    /// Cancels every payment of the sale (voidSale's way: each is tried, the rest reported).
    func cancelSale(_ state: AttemptState) async -> SettlementOutcome {
        let result = await cancelAll(state)
        guard result.failed.isEmpty else {
            return .failed(SettlementFailure(
                declined: false,
                reason: "the sale is not cancelled: still open: \(result.failed.map { "\($0.id) (\($0.reason))" }.joined(separator: ", "))",
                details: saleReceipt(result.payments, state: state, headline: "").details))
        }
        return .completed(saleReceipt(
            result.payments, state: state, headline: "Canceled as asked: all \(result.payments.count) payments were voided; nothing was charged."))
    }

    /// Square applied the delay action: every payment of the sale as Square has it now.
    func settledSale(byDelayAction first: SquarePayment, state: AttemptState) async -> SettlementOutcome {
        var payments = [first]
        for tender in state.tenders { payments.append((try? await square.getPayment(id: tender.id)) ?? tender) }
        let statuses = Set(payments.map(\.status))
        if statuses == ["COMPLETED"] {
            return .completed(saleReceipt(payments, state: state, headline: "Square completed every payment when the delay passed (delay action COMPLETE)."))
        }
        if statuses == ["CANCELED"] {
            return .completed(saleReceipt(payments, state: state, headline: "Square canceled every payment when the delay passed (delay action CANCEL); nothing was charged."))
        }
        return .failed(SettlementFailure(declined: false, reason: "the sale's payments are \(payments.map { "\($0.id) \($0.status)" }.joined(separator: ", "))"))
    }

    func saleReceipt(_ payments: [SquarePayment], state: AttemptState, headline: String) -> SettlementReceipt {
        var details = SquareReceipt.details(payments[0])
        details["payments"] = payments.map(\.id).joined(separator: ",")
        details["tenders"] = String(payments.count)
        if let total = SquareReceipt.sum(payments) { details["total"] = String(total.amount) }
        if let tip = SquareReceipt.tipSum(payments) { details["tip"] = String(tip) }
        return SettlementReceipt(
            paymentID: payments[0].id, details: details, headline: headline,
            printout: SquareReceipt.salePrintout(payments, merchant: state.merchant), charged: payments.contains { $0.status != "CANCELED" },
            total: SquareReceipt.sum(payments).flatMap { SquareReceipt.money($0, like: state.total) })
    }
}
