import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// After CreatePayment answers: another card after a decline (the seed's retry: the same
/// `reference_id`, a new idempotency key each), and the split tender, where a gift card's
/// partial authorization (`accept_partial_authorization`, autocomplete off) leaves a remainder
/// taken on further cards. The sale settles as one: complete all, or cancel (void) all.
extension SquareAdapter {
    /// At most this many payments make one sale (a gift card and the cards after it).
    static let maxTenders = 4
    /// At most this many cards are tried for one payment after declines.
    static let maxCardsPerPayment = 5

    public func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        var result = try await createOnce(draft, order: order, ids: ids)
        var tries = 1
        while result.status == .declined, tries < Self.maxCardsPerPayment, let next = await anotherCard(after: result, ids: ids) {
            tries += 1
            guard var state = attempts[ids.number] else { break }
            if let id = state.payment?.id { state.knownPaymentIDs.insert(id) }
            state.card = next.card
            state.entry = next.entry
            state.payment = nil
            attempts[ids.number] = state
            var retry = ids
            retry.idempotencyKey = Self.key(ids.idempotencyKey, "a\(tries)")
            notify(
                "another-card",
                "trying \(next.card.name) with the same reference \(state.reference) and a new idempotency key (…-a\(tries)); the declined payment stays FAILED")
            result = try await createOnce(draft, order: order, ids: retry)
        }
        guard result.status == .approved, let state = attempts[ids.number], let first = state.payment, first.status == "APPROVED",
            (first.totalMoney?.amount ?? 0) < state.total.minorUnits
        else { return result }
        return try await takeRemainder(result, ids: ids)
    }

    /// An idempotency key with a suffix, within Square's 45 bytes.
    static func key(_ base: String, _ suffix: String) -> String {
        String(base.prefix(45 - suffix.count - 4)) + "-" + suffix
    }

    /// The card to try after a decline: the next of `--card`'s list when the card was decided up
    /// front, else the person at the terminal's choice (try another card, then the reader);
    /// nil: give up (the attempt stays declined).
    private func anotherCard(after declined: PaymentAttempt, ids: AttemptIdentifiers) async -> (card: SquareTestCard, entry: SquareEntryMethod)? {
        guard var state = attempts[ids.number], state.offlineLocalID == nil else { return nil }
        if state.settings.card != nil {
            guard !state.nextCards.isEmpty else { return nil }
            let card = state.nextCards.removeFirst()
            attempts[ids.number] = state
            return (card, state.settings.entry ?? .tap)
        }
        let code = declined.declineReason ?? "DECLINED"
        guard let answer = await desk.ask(SquarePrompts.anotherCard(code: code, total: state.total, reference: state.reference)),
            answer.action == SquarePrompts.anotherCardAction
        else { return nil }
        return await readCard(total: state.total, settings: state.settings, paid: nil)
    }

    /// The reader for another card (after a decline, or for the remainder when `paid` is given):
    /// the merchant-drawn prompt in `--prompt custom` (its reader keys and cancel), else the
    /// SDK's. nil: withdrawn or cancelled.
    private func readCard(total: Money, settings: SquarePaymentSettings, paid: Money?) async -> (card: SquareTestCard, entry: SquareEntryMethod)? {
        // The remainder's reader never offers the gift card (it paid what it holds).
        let giftCard = paid == nil && settings.acceptPartialAuthorization && !settings.autocomplete
        if settings.promptMode == .custom {
            let read = await askCustomReader(total: total, settings: settings, giftCard: giftCard) { prompt in
                if let paid { SquarePrompts.markRemainder(&prompt, remaining: total, paid: paid) }
            }
            switch read {
            case .card(let card, let entry): return (card, entry)
            case .cancelled:
                _ = cancelledBeforeRead(by: "the merchant-drawn prompt")
                return nil
            case nil: return nil
            }
        }
        let prompt = paid.map { SquarePrompts.remainder(total, paid: $0, keyedEntryAllowed: settings.keyedEntryAllowed) }
            ?? SquarePrompts.reader(total: total, keyedEntryAllowed: settings.keyedEntryAllowed, giftCard: giftCard)
        guard let read = await desk.ask(prompt), let card = read.choice.flatMap(SquareTestCard.named) else { return nil }
        return (card, SquareEntryMethod(rawValue: read.action) ?? .tap)
    }

    /// Every payment of the sale: the first, then the tenders.
    static func salePayments(_ state: AttemptState) -> [SquarePayment] {
        [state.payment].compactMap { $0 } + state.tenders
    }

    /// What the sale's payments approved so far; an overflow of amounts Square sent is an error.
    static func approved(_ state: AttemptState) throws(MoneyError) -> Money {
        let currency = state.total.currency
        return try salePayments(state).map { Money(minorUnits: $0.totalMoney?.amount ?? 0, currency: currency) }.sum(in: currency)
    }

    /// An attempt whose APPROVED payments do not yet cover its total (a split sale left half
    /// way); an amount that does not add up counts as not covered.
    static func uncovered(_ state: AttemptState) -> Bool {
        guard salePayments(state).contains(where: { $0.status == "APPROVED" }) else { return false }
        guard let approved = try? approved(state) else { return true }
        return approved < state.total
    }

    /// The split tender: cards for what is left until the sale is covered. A decline offers
    /// another card; giving up (or anything else failing) voids every payment of the sale.
    private func takeRemainder(_ first: PaymentAttempt, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        guard var state = attempts[ids.number], let firstPayment = state.payment else { return first }
        let currency = state.total.currency
        notify(
            "partial-authorization",
            "\(SquareReceipt.brandName(firstPayment.cardDetails?.card?.cardBrand)) approved \(SquareReceipt.money(firstPayment.totalMoney) ?? "?") of \(state.total.formatted); the remainder goes on another card")
        var tender = 1
        var cardsTried = 0
        // Every tender create gets its own key (…-t2, -t3, …): the count only grows, so no two
        // payments of the sale share one; a lost answer is asked again with ITS key (createTender).
        var creates = 1
        while true {
            let approved: Money
            let remaining: Money
            do {
                approved = try Self.approved(state)
                remaining = try state.total - approved
            } catch {
                notify("amount-overflow", "the sale's payments do not add up (\(error)); the sale is voided")
                return await voidSale(state, ids: ids, reason: "AMOUNT_OVERFLOW")
            }
            guard remaining.isPositive else { break }
            guard tender < Self.maxTenders, cardsTried < Self.maxCardsPerPayment,
                let next = await remainderCard(remaining, paid: approved, ids: ids)
            else {
                return await voidSale(state, ids: ids, reason: "REMAINDER_NOT_PAID")
            }
            cardsTried += 1
            creates += 1
            state = attempts[ids.number] ?? state
            let key = Self.key(ids.idempotencyKey, "t\(creates)")
            let request = SquareCreatePaymentRequest(
                sourceID: next.card.nonce(entry: state.settings.documentedNoncesOnly ? .keyed : next.entry), idempotencyKey: key,
                amountMoney: SquareMoney(amount: remaining.minorUnits, currency: currency.code), autocomplete: false,
                delayDuration: state.settings.delayDuration, delayAction: state.settings.delayAction, acceptPartialAuthorization: true,
                referenceID: state.reference, orderID: state.settings.orderID, locationID: square.configuration.locationID, note: state.settings.note)
            let payment: SquarePayment
            // Quitting while it is unanswered cancels it by this key (close()).
            creating[ids.number] = key
            defer { creating[ids.number] = nil }
            do {
                payment = try await createTender(request)
            } catch {
                if let decline = error.decline {
                    if let id = decline.payment?.id { state.knownPaymentIDs.insert(id) }
                    attempts[ids.number] = state
                    notify("remainder-declined", "the card for the remainder was declined (\(decline.code)); try another card or give up")
                    guard await offerAnotherRemainderCard(code: decline.code, remaining: remaining, state: state) else {
                        return await voidSale(state, ids: ids, reason: decline.code)
                    }
                    continue
                }
                await cancel(keys: [key])
                _ = await voidSale(state, ids: ids, reason: "REMAINDER_FAILED")
                throw ProviderFailure(error)
            }
            state.tenders.append(payment)
            state.knownPaymentIDs.insert(payment.id)
            attempts[ids.number] = state
            tender += 1
            cardsTried = 0
            notify("tender", "payment \(payment.id) approved \(SquareReceipt.money(payment.totalMoney) ?? "?") of the remainder \(remaining.formatted)")
        }
        let all = [firstPayment] + state.tenders
        return PaymentAttempt(
            provider: provider, id: firstPayment.id, status: .approved, amount: state.total, reference: state.reference, grants: all.map(\.id))
    }

    /// A tender's CreatePayment: a lost answer is asked again with the SAME key (Square answers
    /// the payment it made, or makes it once), never with another.
    private func createTender(_ request: SquareCreatePaymentRequest) async throws(SquareFailure) -> SquarePayment {
        var lastError: SquareFailure?
        for _ in 0..<3 {
            do { return try await square.createPayment(request) } catch {
                guard error.responseLost || error.neverSent else { throw error }
                lastError = error
            }
        }
        throw lastError ?? .undecodable(status: 0, detail: "no answer")
    }

    /// The next card for the remainder: `--card`'s list when decided up front, else the reader.
    private func remainderCard(_ remaining: Money, paid: Money, ids: AttemptIdentifiers) async -> (card: SquareTestCard, entry: SquareEntryMethod)? {
        guard var state = attempts[ids.number] else { return nil }
        if state.settings.card != nil {
            guard !state.nextCards.isEmpty else {
                notify("remainder-unpaid", "no card left for the remainder \(remaining.formatted) (give one more: --card gift,ok)")
                return nil
            }
            let card = state.nextCards.removeFirst()
            attempts[ids.number] = state
            return (card, state.settings.entry ?? .tap)
        }
        return await readCard(total: remaining, settings: state.settings, paid: paid)
    }

    /// After the remainder's card was declined: another card (true), or give up.
    private func offerAnotherRemainderCard(code: String, remaining: Money, state: AttemptState) async -> Bool {
        if state.settings.card != nil { return !state.nextCards.isEmpty }
        let answer = await desk.ask(SquarePrompts.anotherCard(code: code, total: remaining, reference: state.reference))
        return answer?.action == SquarePrompts.anotherCardAction
    }

    /// Cancels every APPROVED payment of the sale, going on past one that fails: the payments as
    /// they are now, and those still open with why. A payment already cancelled here (close()
    /// and the flow may both void one sale) is not cancelled twice.
    func cancelAll(_ state: AttemptState) async -> (payments: [SquarePayment], voided: [String], failed: [(id: String, reason: String)]) {
        var payments: [SquarePayment] = []
        var voided: [String] = []
        var failed: [(id: String, reason: String)] = []
        for payment in Self.salePayments(state) {
            guard payment.status == "APPROVED", !cancelled.contains(payment.id) else {
                payments.append(payment)
                continue
            }
            cancelled.insert(payment.id)
            do {
                payments.append(try await square.cancelPayment(id: payment.id))
                voided.append(payment.id)
            } catch {
                cancelled.remove(payment.id)
                payments.append(payment)
                failed.append((payment.id, "\(error)"))
                notify("cancel-failed", "could not cancel \(payment.id): \(error); its delay action applies")
            }
        }
        return (payments, voided, failed)
    }

    /// Cancels every APPROVED payment of the sale (nothing stays authorized) and reports the sale
    /// declined with `reason`.
    func voidSale(_ state: AttemptState, ids: AttemptIdentifiers, reason: String) async -> PaymentAttempt {
        let result = await cancelAll(state)
        let voided = result.voided
        let open = result.failed.map(\.id)
        notify(
            "sale-voided",
            "the sale was not covered (\(reason)): cancelled \(voided.isEmpty ? "nothing" : voided.joined(separator: ", "))"
                + (open.isEmpty ? "" : "; still open: \(open.joined(separator: ", "))"))
        var cleared = attempts[ids.number] ?? state
        if let first = result.payments.first, first.id == cleared.payment?.id { cleared.payment = first }
        cleared.tenders = []
        attempts[ids.number] = cleared
        return PaymentAttempt(
            provider: provider, id: state.payment?.id, status: .declined, amount: state.total, reference: state.reference, declineReason: reason)
    }
}
