import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// Square's Mobile Payments SDK "Take a Payment", in the terminal: the tip screen and the card
/// reader (steps before the payment exists), then CreatePayment, whose answer decides at once:
/// COMPLETED, APPROVED (a delayed capture to complete or cancel), or a decline. A lost answer
/// is recovered the Square way; with no network an offline-capable payment is queued here.
public actor SquareAdapter: PaymentProviderAdapter {
    public static let tipStep = "tip"
    public static let readerStep = "reader"
    public static let authorizedStep = "authorized"
    public static let completingStep = "completing"
    public static let cancelingStep = "canceling"
    public static let steps = [tipStep, readerStep, authorizedStep, completingStep, cancelingStep]

    /// What one attempt has gathered: the card read, the tip, and the payment once created.
    struct AttemptState: Sendable {
        var settings: SquarePaymentSettings
        var card: SquareTestCard
        var entry: SquareEntryMethod
        var tip: Money
        var total: Money
        var reference: String
        var merchant: String
        var payment: SquarePayment?
        var offlineLocalID: String?
        /// The cards still to present (`--card declined,ok`), and the payments taken for what a
        /// gift card's partial authorization left (the split tender), after `payment`.
        var nextCards: [SquareTestCard] = []
        var tenders: [SquarePayment] = []
        /// Payments of this sale already known (a declined one): a lost answer never adopts them.
        var knownPaymentIDs: Set<String> = []
        /// UpdatePayment calls made, for their idempotency keys.
        var updates = 0
        /// The key CreatePayment was sent with: the payment handle cancels by it.
        var idempotencyKey = ""
    }

    public let provider: String
    public let square: SquareClient
    public let settings: SquarePaymentSettings
    let desk: CustomerDesk
    private let offlineStore: (any SquareOfflineStore)?
    let notify: @Sendable (_ name: String, _ summary: String) -> Void
    /// A notice with its facts for `--json` (the custom prompt's reader changes and cancels).
    let post: @Sendable (_ name: String, _ summary: String, _ fields: [String: String]) -> Void
    /// The simulated reader the custom prompt reports on; it stays as it is between payments.
    var reader = SquareReader()
    private let pollInterval: Duration
    private let now: @Sendable () -> Date
    var attempts: [Int: AttemptState] = [:]
    /// The upload of the offline queue in progress, if any.
    private var upload: Task<Void, Never>?
    /// Idempotency keys of creates sent and not yet answered, by attempt number.
    var creating: [Int: String] = [:]
    /// Payments cancelled (or being cancelled) by this adapter: a sale voided twice (close() and
    /// the flow it interrupts) cancels each once.
    var cancelled: Set<String> = []

    public init(
        provider: String, square: SquareClient, settings: SquarePaymentSettings, desk: CustomerDesk, offlineStore: (any SquareOfflineStore)?,
        pollInterval: Duration = .seconds(1), now: @escaping @Sendable () -> Date = { Date() },
        notify: @escaping @Sendable (_ name: String, _ summary: String) -> Void = { _, _ in },
        post: @escaping @Sendable (_ name: String, _ summary: String, _ fields: [String: String]) -> Void = { _, _, _ in }
    ) {
        self.post = post
        self.provider = provider
        self.square = square
        self.settings = settings
        self.desk = desk
        self.offlineStore = offlineStore
        self.pollInterval = pollInterval
        self.now = now
        self.notify = notify
    }

    // MARK: Before the payment: the tip screen and the reader

    public func prepare(_ order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter) async throws(ProviderFailure) -> PaymentAttempt {
        attempts = attempts.filter { $0.key >= ids.number - 4 }
        let settings = settings.applying(order.providerOptions)
        let reference = order.reference ?? ids.reference
        var tipUnits = settings.tip
        if tipUnits == nil {
            await step(Self.tipStep)
            guard let answer = await desk.ask(SquarePrompts.tip(amount: order.amount)) else { throw .promptWithdrawn }
            tipUnits = Int(answer.choice ?? "0") ?? 0
        }
        let tip = Money(minorUnits: tipUnits ?? 0, currency: order.amount.currency)
        let total: Money
        do { total = try order.amount + tip } catch {
            throw ProviderFailure(kind: .integration, category: "INVALID_REQUEST_ERROR", code: "AMOUNT_TOO_LARGE", detail: "\(error)", field: "tip_money")
        }
        var card = settings.card
        var entry = settings.entry ?? .tap
        if settings.promptMode == .custom {
            await step(Self.readerStep)
            switch try await readCustom(total: total, settings: settings, giftCard: settings.acceptPartialAuthorization && !settings.autocomplete) {
            case .card(let read, let way): (card, entry) = (read, way)
            case .cancelled: return cancelledAttempt(total: total, reference: reference)
            }
        } else if card == nil {
            await step(Self.readerStep)
            let reader = SquarePrompts.reader(
                total: total, keyedEntryAllowed: settings.keyedEntryAllowed, giftCard: settings.acceptPartialAuthorization && !settings.autocomplete)
            guard let answer = await desk.ask(reader) else {
                throw .promptWithdrawn
            }
            card = answer.choice.flatMap(SquareTestCard.named)
            entry = SquareEntryMethod(rawValue: answer.action) ?? .tap
        }
        guard let card else { throw .promptWithdrawn }
        attempts[ids.number] = AttemptState(
            settings: settings, card: card, entry: entry, tip: tip, total: total, reference: reference, merchant: order.merchantName,
            nextCards: settings.card == nil ? [] : settings.nextCards)
        return PaymentAttempt(provider: provider, amount: total, reference: reference)
    }

    // MARK: CreatePayment

    /// One CreatePayment with the attempt's card as it stands (`create`, in SquareSplitTender.swift,
    /// calls it again for another card after a decline).
    func createOnce(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        guard var state = attempts[ids.number] else { throw .promptWithdrawn }
        state.idempotencyKey = ids.idempotencyKey
        attempts[ids.number] = state
        if state.settings.documentedNoncesOnly, state.entry != .keyed {
            notify("keyed-nonce", "Square's sandbox takes only its documented test nonces: the \(state.entry.rawValue) is sent as \(state.card.nonce) (entry_method will read KEYED)")
        }
        let request = createRequest(state, order: order, idempotencyKey: ids.idempotencyKey)
        let startedAt = now()
        creating[ids.number] = ids.idempotencyKey
        defer { creating[ids.number] = nil }
        let outcome: CreateOutcome
        if state.settings.processingMode == .offlineOnly, let offlineStore {
            return try await queued(request, state: &state, ids: ids, store: offlineStore, why: "offline-only: payment")
        }
        do {
            outcome = .created(try await square.createPayment(request))
        } catch {
            if let decline = error.decline {
                outcome = .declined(decline.payment, code: decline.code)
            } else if error.neverSent, state.settings.processingMode == .offlineCapable, let offlineStore {
                return try await queued(request, state: &state, ids: ids, store: offlineStore, why: "Square unreachable; payment")
            } else if error.responseLost {
                outcome = try await recover(request, ids: ids, since: startedAt)
            } else {
                throw ProviderFailure(error)
            }
        }
        uploadQueuedInBackground()
        switch outcome {
        case .created(let payment):
            state.payment = payment
            attempts[ids.number] = state
            guard payment.status == "COMPLETED" || payment.status == "APPROVED" else {
                return attempt(payment, state: state, status: .declined, reason: payment.status)
            }
            return attempt(payment, state: state, status: .approved)
        case .declined(let payment, let code):
            state.payment = payment
            attempts[ids.number] = state
            return PaymentAttempt(
                provider: provider, id: payment?.id, status: .declined, amount: state.total, reference: state.reference, declineReason: code)
        }
    }

    /// Taken offline: queued on this machine, approved locally.
    private func queued(
        _ request: SquareCreatePaymentRequest, state: inout AttemptState, ids: AttemptIdentifiers, store: any SquareOfflineStore, why: String
    ) async throws(ProviderFailure) -> PaymentAttempt {
        let localID = try await takeOffline(request, state: state, store: store, why: why)
        state.offlineLocalID = localID
        attempts[ids.number] = state
        return PaymentAttempt(provider: provider, id: localID, status: .approved, amount: state.total, reference: state.reference, grants: [localID])
    }

    enum CreateOutcome: Sendable {
        case created(SquarePayment)
        case declined(SquarePayment?, code: String)
    }

    private func attempt(_ payment: SquarePayment, state: AttemptState, status: PaymentAttempt.Status, reason: String? = nil) -> PaymentAttempt {
        PaymentAttempt(
            provider: provider, id: payment.id, status: status, amount: state.total, reference: state.reference,
            grants: status == .approved ? [payment.id] : [], declineReason: reason)
    }

    func createRequest(_ state: AttemptState, order: PaymentOrder, idempotencyKey: String) -> SquareCreatePaymentRequest {
        let currency = order.amount.currency.code
        let settings = state.settings
        let entry = settings.documentedNoncesOnly ? SquareEntryMethod.keyed : state.entry
        return SquareCreatePaymentRequest(
            sourceID: state.card.nonce(entry: entry), idempotencyKey: idempotencyKey,
            amountMoney: SquareMoney(amount: order.amount.minorUnits, currency: currency),
            tipMoney: state.tip.minorUnits > 0 ? SquareMoney(amount: state.tip.minorUnits, currency: currency) : nil,
            appFeeMoney: settings.appFee.map { SquareMoney(amount: $0, currency: currency) },
            autocomplete: settings.autocomplete, delayDuration: settings.autocomplete ? nil : settings.delayDuration,
            delayAction: settings.autocomplete ? nil : settings.delayAction,
            acceptPartialAuthorization: settings.acceptPartialAuthorization && !settings.autocomplete ? true : nil, referenceID: state.reference, orderID: settings.orderID,
            locationID: square.configuration.locationID, note: settings.note)
    }

    /// A card payment is decided when created; there is nothing to update.
    public func update(
        _ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers
    ) async throws(ProviderFailure) -> PaymentAttempt {
        throw .terminalState
    }

    /// GetPayment, for a caller that polls.
    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        guard let id = attempt.id else { return attempt }
        let payment: SquarePayment
        do { payment = try await square.getPayment(id: id) } catch { throw ProviderFailure(error) }
        var updated = attempt
        switch payment.status {
        case "APPROVED", "COMPLETED": updated.status = .approved
        case "PENDING": updated.status = .pending
        default: updated.status = .declined
        }
        return updated
    }

    // MARK: A lost answer: list, adopt, or retry with a new key and the same reference

    /// Square's advice after a CreatePayment whose answer was lost: look for the payment by
    /// its reference id in ListPayments and adopt it; if it is not there, the request never
    /// charged, so send it again with a NEW idempotency key and the SAME reference id. When
    /// Square stays silent, every key used is cancelled so nothing is left charged.
    private func recover(_ original: SquareCreatePaymentRequest, ids: AttemptIdentifiers, since: Date) async throws(ProviderFailure) -> CreateOutcome {
        var request = original
        var keysUsed = [original.idempotencyKey]
        notify("lost-response", "CreatePayment's answer was lost; looking for reference \(original.referenceID ?? "?") in ListPayments")
        for round in 1...2 {
            let found: SquarePayment?
            let known = attempts[ids.number]?.knownPaymentIDs ?? []
            do { found = try await findPayment(reference: original.referenceID, since: since, excluding: known) } catch {
                await cancel(keys: keysUsed)
                throw ProviderFailure(error)
            }
            if let found {
                notify("adopted", "payment \(found.id) (\(found.status)) found by reference \(found.referenceID ?? "?"); adopted, not charged again")
                if found.status == "FAILED" { return .declined(found, code: found.cardDetails?.status ?? "FAILED") }
                return .created(found)
            }
            request.idempotencyKey = "\(ids.idempotencyKey)-r\(round)"
            keysUsed.append(request.idempotencyKey)
            notify("retry", "no payment has reference \(original.referenceID ?? "?"); sending again with a new idempotency key (…-r\(round))")
            do {
                return .created(try await square.createPayment(request))
            } catch {
                if let decline = error.decline { return .declined(decline.payment, code: decline.code) }
                guard error.responseLost else { throw ProviderFailure(error) }
            }
        }
        await cancel(keys: keysUsed)
        throw ProviderFailure(
            kind: .network, category: "NETWORK_ERROR", code: "NO_RESPONSE",
            detail: "Square never answered CreatePayment; every idempotency key used was cancelled, so nothing is charged")
    }

    /// The payment with `reference`, created since `since` (a minute's slack for clocks).
    func findPayment(reference: String?, since: Date, excluding known: Set<String> = []) async throws(SquareFailure) -> SquarePayment? {
        guard let reference else { return nil }
        let begin = Self.rfc3339(since.addingTimeInterval(-60))
        var cursor: String?
        for _ in 0..<5 {
            let page = try await square.listPayments(beginTime: begin, cursor: cursor)
            if let payment = page.payments?.first(where: { $0.referenceID == reference && !known.contains($0.id) }) { return payment }
            guard let next = page.cursor, !next.isEmpty else { return nil }
            cursor = next
        }
        return nil
    }

    /// CancelPaymentByIdempotencyKey for each key (best effort: the user is told either way).
    func cancel(keys: [String]) async {
        for key in keys {
            do { try await square.cancelPayment(idempotencyKey: key) } catch {
                notify("cancel-failed", "could not cancel by idempotency key …\(key.suffix(6)): \(error)")
                continue
            }
            notify("canceled-by-key", "cancelled whatever idempotency key …\(key.suffix(6)) created")
        }
    }

    /// The session ends (the user quit) while a create is unanswered: it may yet charge, so it
    /// is cancelled by its idempotency key. A split sale left half way (its payments do not yet
    /// cover its total: the remainder's prompt was up) is voided, so no part stays APPROVED.
    public func close() async {
        let keys = creating.values.sorted()
        creating.removeAll()
        await cancel(keys: keys)
        for (number, state) in attempts.sorted(by: { $0.key < $1.key }) where Self.uncovered(state) {
            let ids = AttemptIdentifiers(number: number, idempotencyKey: state.idempotencyKey, reference: state.reference)
            _ = await voidSale(state, ids: ids, reason: "CLOSED")
        }
        // An upload of the offline queue finishes (each is bounded by the HTTP timeouts).
        await upload?.value
    }

    // MARK: Offline

    private func takeOffline(
        _ request: SquareCreatePaymentRequest, state: AttemptState, store: any SquareOfflineStore, why: String
    ) async throws(ProviderFailure) -> String {
        let entry = SquareOfflinePayment(
            localID: "offline-" + UUID().uuidString.lowercased().prefix(8), createdAt: now(), request: request, cardBrand: state.card.card.cardBrand,
            last4: state.card.card.last4, entryMethod: state.entry.wire, state: .queued)
        do { try await store.enqueue(entry) } catch {
            throw ProviderFailure(kind: .unexpected, category: "OFFLINE_STORE", code: "NOT_STORED", detail: "Square is unreachable and the offline queue failed: \(error)")
        }
        notify("offline", "\(why) taken offline as \(entry.localID) and queued on this machine")
        return entry.localID
    }

    /// Square answered: upload what was taken offline, once at a time.
    private func uploadQueuedInBackground() {
        guard let offlineStore, upload == nil else { return }
        let uploader = SquareOfflineUploader(store: offlineStore, client: square)
        let notify = notify
        upload = Task {
            for result in await uploader.uploadQueued() { notify("offline-upload", Self.uploadLine(result)) }
        }
    }

    /// One upload's result in words, for the log and `checkout offline`.
    public static func uploadLine(_ result: SquareOfflineUploader.UploadResult) -> String {
        switch result.outcome {
        case .uploaded(let id, let status): "\(result.localID) uploaded as \(id) (\(status))"
        case .declined(let code, let detail): "\(result.localID) declined on upload: \(code) \(detail)"
        case .unreachable(let reason): "\(result.localID) still queued: Square unreachable (\(reason))"
        case .skipped: "\(result.localID) still queued"
        case .notRecorded(let answer, let reason): "\(result.localID): Square answered \(answer), not recorded (\(reason)); still queued"
        case .queueUnreadable(let reason): "the offline queue could not be read: \(reason)"
        }
    }

    // MARK: Settlement: completed, or a delayed payment completed, cancelled or expired

    public func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome {
        guard let state = attempts[ids.number] else {
            return .failed(SettlementFailure(declined: false, reason: "no Square payment for this attempt"))
        }
        if let localID = state.offlineLocalID {
            return .completed(offlineReceipt(localID, state: state))
        }
        guard var payment = state.payment else { return .failed(SettlementFailure(declined: false, reason: "no Square payment for this attempt")) }
        switch payment.status {
        case "COMPLETED": return .completed(receipt(payment, state: state))
        case "APPROVED": break
        default: return .failed(SettlementFailure(declined: false, reason: "payment \(payment.id) is \(payment.status)", details: SquareReceipt.details(payment)))
        }
        await step(Self.authorizedStep)
        if let tip = state.settings.tipAfterAuthorization, let failure = await addTip(tip, ids: ids) {
            // Headless: what `--then` says still happens, without the tip.
            notify("tip-failed", "\(failure.reason); going on with --then \(state.settings.then?.rawValue ?? "?") without the tip")
        }
        while true {
            let current = attempts[ids.number] ?? state
            payment = current.payment ?? payment
            let decision = await decide(payment, settings: current.settings, prompt: authorizedPrompt(current, payment: payment))
            switch decision {
            case .addTip:
                guard let tip = await askTip(ids: ids) else { continue }
                if let failure = await addTip(tip, ids: ids) {
                    // Back to the authorized prompt: complete, cancel or try the tip again.
                    notify("tip-failed", "\(failure.reason); complete, cancel or add the tip again")
                }
            case .act(let then):
                return await act(then, on: payment, state: current, step: step)
            case .changed(let changed):
                return await settled(byDelayAction: changed, state: current)
            case .failed(let failure):
                return .failed(SettlementFailure(declined: false, reason: failure.description, details: SquareReceipt.details(payment)))
            case .withdrawn:
                return .failed(SettlementFailure(declined: false, reason: "left authorized: nobody completed or cancelled it", details: SquareReceipt.details(payment)))
            }
        }
    }

    enum Decision: Sendable {
        case act(SquarePaymentSettings.Then)
        /// Square applied the delay action by itself.
        case changed(SquarePayment)
        case failed(SquareFailure)
        case withdrawn
        /// The person at the terminal asked to add a tip (UpdatePayment) before deciding.
        case addTip
    }

    /// `--then` decides at once (expire waits); otherwise the prompt and the delay race.
    private func decide(_ payment: SquarePayment, settings: SquarePaymentSettings, prompt authorized: CustomerPrompt) async -> Decision {
        if let then = settings.then, then != .expire { return .act(then) }
        let desk = desk
        let square = square
        let interval = pollInterval
        let deadline = Self.date(payment.delayedUntil)
        let prompt = settings.then == .expire ? nil : authorized
        return await withTaskGroup(of: Decision?.self, returning: Decision.self) { group in
            if let prompt {
                group.addTask { await Self.promptDecision(prompt, desk: desk) }
            }
            group.addTask { await Self.delayDecision(payment.id, deadline: deadline, square: square, interval: interval) }
            var decision = Decision.withdrawn
            while let result = await group.next() {
                guard let result else { continue }
                decision = result
                break
            }
            group.cancelAll()
            return decision
        }
    }

    private static func promptDecision(_ prompt: CustomerPrompt, desk: CustomerDesk) async -> Decision? {
        guard let answer = await desk.ask(prompt) else { return Task.isCancelled ? nil : Decision.withdrawn }
        if answer.action == SquarePrompts.addTipAction { return Decision.addTip }
        guard let then = SquarePaymentSettings.Then(rawValue: answer.action) else { return Decision.withdrawn }
        return Decision.act(then)
    }

    /// Reads the payment until Square applies the delay action (nil when cancelled): every
    /// `interval` once the deadline is near or past, else at most every 30 s, so a long delay
    /// does not fill the HTTP log.
    private static func delayDecision(_ id: String, deadline: Date?, square: SquareClient, interval: Duration) async -> Decision? {
        while !Task.isCancelled {
            let remaining = deadline.map { $0.timeIntervalSinceNow } ?? 0
            let pause = remaining > 1 ? Duration.milliseconds(Int(min(remaining, 30) * 1000)) : interval
            do { try await Task.sleep(for: pause) } catch { return nil }
            do {
                let current = try await square.getPayment(id: id)
                if current.status != "APPROVED" { return Decision.changed(current) }
            } catch {
                if case .transport(.cancelled) = error { return nil }
                if !SquareClient.isRetryable(error) { return Decision.failed(error) }
            }
        }
        return nil
    }

    private func act(_ then: SquarePaymentSettings.Then, on payment: SquarePayment, state: AttemptState, step: @escaping StepReporter) async -> SettlementOutcome {
        do {
            switch then {
            case .complete:
                await step(Self.completingStep)
                if !state.tenders.isEmpty { return await completeSale(state) }
                return .completed(receipt(try await square.completePayment(id: payment.id, versionToken: payment.versionToken), state: state))
            case .cancel where state.settings.promptMode == .custom && state.tenders.isEmpty:
                await step(Self.cancelingStep)
                let current = try await cancelThroughHandle(payment, state: state)
                guard current.status == "CANCELED" else { return await settled(byDelayAction: current, state: state) }
                return .completed(Self.cancelledReceipt(receipt(current, state: state, headline: SquareCustomPrompt.cancelledHeadline)))
            case .cancel:
                await step(Self.cancelingStep)
                if !state.tenders.isEmpty { return await cancelSale(state) }
                let canceled = try await square.cancelPayment(id: payment.id)
                return .completed(receipt(canceled, state: state, headline: "Canceled as asked: the authorization was voided; nothing was charged."))
            case .expire:
                return .failed(SettlementFailure(declined: false, reason: "expire is waited for, not acted on"))
            }
        } catch {
            // The delay may have passed meanwhile: what Square says now decides.
            let current = try? await square.getPayment(id: payment.id)
            if let current, current.status != "APPROVED" {
                return await settled(byDelayAction: current, state: state)
            }
            if then == .complete {
                notify("complete-failed", "could not complete \(payment.id): \(error); it is \((current ?? payment).status)")
                return await abandon(state, payments: [current ?? payment], failure: "\(payment.id): \(ProviderFailure(error).description)")
            }
            return .failed(SettlementFailure(declined: false, reason: ProviderFailure(error).description, details: SquareReceipt.details(payment)))
        }
    }

    private func settled(byDelayAction payment: SquarePayment, state: AttemptState) async -> SettlementOutcome {
        if !state.tenders.isEmpty { return await settledSale(byDelayAction: payment, state: state) }
        switch payment.status {
        case "COMPLETED":
            return .completed(receipt(payment, state: state, headline: "Square completed it when the delay passed (delay action COMPLETE)."))
        case "CANCELED":
            return .completed(receipt(payment, state: state, headline: "Square canceled it when the delay passed (delay action CANCEL); nothing was charged."))
        default:
            return .failed(SettlementFailure(declined: false, reason: "payment \(payment.id) is \(payment.status)", details: SquareReceipt.details(payment)))
        }
    }

    /// The prompts it asks, as the screen shows them.
    public static func tipPrompt(amount: Money) -> CustomerPrompt { SquarePrompts.tip(amount: amount) }
    public static func readerPrompt(total: Money, keyedEntryAllowed: Bool) -> CustomerPrompt {
        SquarePrompts.reader(total: total, keyedEntryAllowed: keyedEntryAllowed)
    }
    public static func authorizedPrompt(_ payment: SquarePayment) -> CustomerPrompt {
        SquarePrompts.authorized(payment: payment, deadline: date(payment.delayedUntil))
    }

    /// The printed receipt of `payment` (the screen's cart pane and `--receipt`).
    public static func printout(_ payment: SquarePayment, merchant: String) -> [String] {
        SquareReceipt.printout(payment, merchant: merchant)
    }

    func receipt(_ payment: SquarePayment, state: AttemptState, headline: String? = nil) -> SettlementReceipt {
        SettlementReceipt(
            paymentID: payment.id, details: SquareReceipt.details(payment), headline: headline ?? Self.tipHeadline(state, payment),
            printout: SquareReceipt.printout(payment, merchant: state.merchant), charged: payment.status != "CANCELED",
            total: payment.totalMoney.flatMap { SquareReceipt.money($0, like: state.total) })
    }

    private func offlineReceipt(_ localID: String, state: AttemptState) -> SettlementReceipt {
        let card = state.card.card
        var details = [
            "status": "QUEUED_OFFLINE", "offline_local_id": localID, "reference_id": state.reference, "entry_method": state.entry.wire,
            "total": String(state.total.minorUnits), "tip": String(state.tip.minorUnits), "currency": state.total.currency.code,
        ]
        if let brand = card.cardBrand { details["card_brand"] = brand }
        if let last4 = card.last4 { details["last_4"] = last4 }
        return SettlementReceipt(
            paymentID: localID, details: details,
            headline: "Taken offline as \(localID): queued on this machine; it uploads when Square answers (checkout offline).")
    }

    // MARK: Time

    static func rfc3339(_ date: Date) -> String {
        let style = Date.ISO8601FormatStyle()
        return style.format(date)
    }

    static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        return ISO8601Milliseconds.date(from: text)
    }
}
