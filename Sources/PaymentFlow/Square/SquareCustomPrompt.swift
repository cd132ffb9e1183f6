import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// `PromptMode.custom`: the "merchant-drawn" prompt the app draws itself from what the SDK
/// reports — the reader's `availableCardInputMethods`, the handle's additional methods (keyed)
/// and `isPaymentCancelable` — and redraws whenever the reader connects, disconnects or its
/// battery runs low. Its keys change the simulated reader and cancel through the payment handle.
enum SquareCustomPrompt {
    static let id = "prompt"
    static let cancelID = "cancel"
    /// The attempt's decline reason when the payment was cancelled before the card was read.
    static let cancelledReason = "PAYMENT_CANCELED"
    static let readerPrefix = "reader:"
    static let headline = "Merchant-drawn prompt (PromptMode.custom)"

    /// With `giftCard` (partial authorization accepted) the gift card is offered too.
    static func reader(total: Money, reader: SquareReader, keyedEntryAllowed: Bool, preferred: SquareEntryMethod?, giftCard: Bool = false) -> CustomerPrompt {
        let available = reader.available(keyedEntryAllowed: keyedEntryAllowed)
        let choices = SquarePrompts.cardChoices(currency: total.currency, giftCard: giftCard)
        var actions = available.map { method in
            switch method {
            case .tap: PromptAction(key: "t", label: "tap", id: SquareEntryMethod.tap.rawValue)
            case .dip: PromptAction(key: "d", label: "dip", id: SquareEntryMethod.insert.rawValue)
            case .swipe: PromptAction(key: "s", label: "swipe", id: SquareEntryMethod.swipe.rawValue)
            case .keyed: PromptAction(key: "k", label: "keyed", id: SquareEntryMethod.keyed.rawValue)
            }
        }
        // Cancel before the reader's keys, so it stays on the box's key row at 80 columns.
        actions.append(PromptAction(key: "x", label: "cancel", id: cancelID))
        actions.append(
            reader.connected
                ? PromptAction(key: "r", label: "disconnect", id: readerPrefix + SquareReader.Change.disconnect.rawValue)
                : PromptAction(key: "r", label: "connect", id: readerPrefix + SquareReader.Change.connect.rawValue))
        if reader.connected {
            actions.append(
                reader.batteryLow
                    ? PromptAction(key: "b", label: "recharge", id: readerPrefix + SquareReader.Change.charged.rawValue)
                    : PromptAction(key: "b", label: "drain", id: readerPrefix + SquareReader.Change.lowBattery.rawValue))
        }
        let lines = [
            headline,
            "Reader: \(reader.summary)",
            "Card input methods: \(SquareReader.words(reader.cardInputMethods))",
            "Additional methods: \(keyedEntryAllowed ? "keyed" : "none (removed)")",
            "Payment cancelable: yes",
        ]
        // A scripted customer presents its card the first way the reader takes it (the
        // --entry asked for when it can); with no way at all the merchant cancels.
        let way = preferred.map(SquareReader.InputMethod.init(entry:)).flatMap { available.contains($0) ? $0 : nil } ?? available.first
        let scripted: [String: PromptAnswer] = if let way {
            [
                "approve": PromptAnswer(action: way.entry.rawValue, choice: "ok"),
                "approve-after": PromptAnswer(action: way.entry.rawValue, choice: "ok"),
                "decline": PromptAnswer(action: way.entry.rawValue, choice: "declined"),
            ]
        } else {
            ["approve": PromptAnswer(action: cancelID), "approve-after": PromptAnswer(action: cancelID), "decline": PromptAnswer(action: cancelID)]
        }
        var prompt = CustomerPrompt(
            id: id, title: "Total \(total.formatted)", lines: lines, choices: choices, actions: actions, scripted: scripted, choiceFlag: "card")
        // A scenario written from the screen keeps each card presented in the sale; the reader's
        // keys and cancel present none.
        prompt.appendingFlags = ["card"]
        prompt.unrecordedActions = Set(actions.map(\.id).filter { $0 == cancelID || $0.hasPrefix(readerPrefix) })
        return prompt
    }

    /// The reader change an answer stands for, if it is one.
    static func change(_ action: String) -> SquareReader.Change? {
        guard action.hasPrefix(readerPrefix) else { return nil }
        return SquareReader.Change(rawValue: String(action.dropFirst(readerPrefix.count)))
    }

    /// The delayed payment, drawn by the app: still cancelable through the handle (autocomplete off).
    static func authorized(payment: SquarePayment, deadline: Date?) -> CustomerPrompt {
        decorated(SquarePrompts.authorized(payment: payment, deadline: deadline))
    }

    /// An authorized prompt (one payment or a split sale) as the app draws it: its cancel is the
    /// payment handle's.
    static func decorated(_ authorized: CustomerPrompt) -> CustomerPrompt {
        var prompt = authorized
        prompt.lines = [headline] + prompt.lines + ["Payment cancelable: yes (autocomplete off)"]
        prompt.actions = prompt.actions.map { action in
            var action = action
            if action.id == SquarePaymentSettings.Then.cancel.rawValue { action.label = "cancel payment" }
            return action
        }
        return prompt
    }

    static let cancelledHeadline = "Cancelled through the payment handle (didCancel): CancelPaymentByIdempotencyKey voided the authorization; nothing was charged."

    static func notice(_ reader: SquareReader, change: SquareReader.Change, keyedEntryAllowed: Bool) -> (summary: String, fields: [String: String]) {
        let methods = SquareReader.words(reader.cardInputMethods)
        let summary = "reader \(change.rawValue): \(reader.summary); card input methods \(methods)\(keyedEntryAllowed ? " (+ keyed)" : "")"
        return (summary, [
            "change": change.rawValue, "reader": reader.summary, "card_input_methods": reader.cardInputMethods.map(\.rawValue).joined(separator: ","),
            "additional_methods": keyedEntryAllowed ? "keyed" : "", "payment_cancelable": "true",
        ])
    }
}

extension SquareAdapter {
    /// What the custom prompt came to: a card presented a way the reader takes, or the payment
    /// cancelled through its handle before any card was read.
    enum CustomRead: Sendable {
        case card(SquareTestCard, SquareEntryMethod)
        case cancelled
    }

    /// The merchant-drawn prompt: `--reader-steps` happen first (each redraws it), then the
    /// card is presented (`--card` decides at once) or the person at the terminal answers.
    func readCustom(total: Money, settings: SquarePaymentSettings, giftCard: Bool) async throws(ProviderFailure) -> CustomRead {
        for change in settings.readerSteps {
            if change == .cancel { return cancelledBeforeRead(by: "--reader-steps") }
            changeReader(change, keyedEntryAllowed: settings.keyedEntryAllowed)
        }
        if let card = settings.card {
            let available = reader.available(keyedEntryAllowed: settings.keyedEntryAllowed)
            guard let way = settings.entry.map(SquareReader.InputMethod.init(entry:)) ?? available.first else {
                throw ProviderFailure(
                    kind: .integration, category: "INVALID_REQUEST_ERROR", code: "NO_CARD_INPUT_METHOD",
                    detail: "the reader is \(reader.summary) and keyed entry was removed: no card input method is available")
            }
            guard available.contains(way) else {
                throw ProviderFailure(
                    kind: .integration, category: "INVALID_REQUEST_ERROR", code: "CARD_INPUT_METHOD_UNAVAILABLE",
                    detail: "--entry \(way.entry.rawValue) is not available now (reader \(reader.summary)); available: \(SquareReader.words(available))",
                    field: "entry")
            }
            return .card(card, way.entry)
        }
        switch await askCustomReader(total: total, settings: settings, giftCard: giftCard) {
        case .card(let card, let entry): return .card(card, entry)
        case .cancelled: return cancelledBeforeRead(by: "the merchant-drawn prompt")
        case nil: throw .promptWithdrawn
        }
    }

    /// The merchant-drawn prompt until a card is presented a way the reader takes (its reader
    /// keys redraw it): the card, .cancelled by its cancel, nil when withdrawn. `adjust` changes
    /// the prompt before each showing (the remainder's title).
    func askCustomReader(
        total: Money, settings: SquarePaymentSettings, giftCard: Bool, adjust: (inout CustomerPrompt) -> Void = { _ in }
    ) async -> CustomRead? {
        while true {
            var prompt = SquareCustomPrompt.reader(
                total: total, reader: reader, keyedEntryAllowed: settings.keyedEntryAllowed, preferred: settings.entry, giftCard: giftCard)
            adjust(&prompt)
            guard let answer = await desk.ask(prompt) else { return nil }
            if answer.action == SquareCustomPrompt.cancelID { return .cancelled }
            if let change = SquareCustomPrompt.change(answer.action) {
                changeReader(change, keyedEntryAllowed: settings.keyedEntryAllowed)
                continue
            }
            guard let entry = SquareEntryMethod(rawValue: answer.action),
                reader.available(keyedEntryAllowed: settings.keyedEntryAllowed).contains(SquareReader.InputMethod(entry: entry)),
                let card = answer.choice.flatMap(SquareTestCard.named)
            else { continue }
            return .card(card, entry)
        }
    }

    private func changeReader(_ change: SquareReader.Change, keyedEntryAllowed: Bool) {
        reader.apply(change)
        let notice = SquareCustomPrompt.notice(reader, change: change, keyedEntryAllowed: keyedEntryAllowed)
        post("reader", notice.summary, notice.fields)
    }

    func cancelledBeforeRead(by whom: String) -> CustomRead {
        post(
            "cancelled", "didCancel: cancelled through the payment handle (\(whom)) before the card was read; nothing was created at Square",
            ["outcome": "cancelled", "card_read": "false"])
        return .cancelled
    }

    /// The attempt that ends a payment cancelled before the card was read: declined, no payment.
    func cancelledAttempt(total: Money, reference: String) -> PaymentAttempt {
        PaymentAttempt(provider: provider, status: .declined, amount: total, reference: reference, declineReason: SquareCustomPrompt.cancelledReason)
    }

    /// The payment handle's cancelPayment after the card was read (autocomplete off): Square's
    /// recovery advice, CancelPaymentByIdempotencyKey with the key that created it; then the
    /// payment as Square has it now. A payment a recovery made under a newer key is cancelled by id.
    func cancelThroughHandle(_ payment: SquarePayment, state: AttemptState) async throws(SquareFailure) -> SquarePayment {
        try await square.cancelPayment(idempotencyKey: state.idempotencyKey)
        var current = try await square.getPayment(id: payment.id)
        if current.status == "APPROVED" { current = try await square.cancelPayment(id: payment.id) }
        if current.status == "CANCELED" {
            post(
                "cancelled", "didCancel: payment \(current.id) cancelled through the payment handle after the card was read (CancelPaymentByIdempotencyKey)",
                ["outcome": "cancelled", "card_read": "true", "payment_id": current.id])
        }
        return current
    }

    /// A receipt for a payment cancelled through the handle: the delegate's outcome in its facts.
    static func cancelledReceipt(_ receipt: SettlementReceipt) -> SettlementReceipt {
        var receipt = receipt
        receipt.details["sdk_outcome"] = "cancelled"
        return receipt
    }
}

extension SquareAdapter {
    /// The merchant-drawn prompt as the screen shows it, for a reader in `reader`'s state.
    public static func customPrompt(total: Money, reader: SquareReader, keyedEntryAllowed: Bool) -> CustomerPrompt {
        SquareCustomPrompt.reader(total: total, reader: reader, keyedEntryAllowed: keyedEntryAllowed, preferred: nil)
    }

    /// The merchant-drawn prompt of a delayed payment, still cancelable through the handle.
    public static func customAuthorizedPrompt(_ payment: SquarePayment) -> CustomerPrompt {
        SquareCustomPrompt.authorized(payment: payment, deadline: date(payment.delayedUntil))
    }
}
