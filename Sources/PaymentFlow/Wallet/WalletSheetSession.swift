import CheckoutModel
import Foundation
import ProviderWire

/// One open sheet: asks its prompts one at a time, looks rates up in tasks while the sheet
/// stays usable, takes only the newest address's answer, and on authorization has the token
/// issued and charged. Rates answers and the customer's answers arrive on one stream, so the
/// sheet's state has a single writer.
final class WalletSheetSession: Sendable {
    private enum Input: Sendable {
        /// An answer to the prompt posed `serial`-th; an older one's (its withdrawal) is stale.
        case answer(PromptAnswer?, promptID: String, serial: Int)
        case rates(WalletSheet.RatesOutcome, generation: Int)
    }

    private enum Screen: Hashable, Sendable {
        case sheet, cards, addresses, addressForm, methods, confirm, passcode
    }

    private let desk: CustomerDesk
    private let settings: WalletSettings
    private let services: WalletServices
    private let report: WalletEventReporter
    private let receipts: WalletReceipts
    private let inputs: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation

    init(desk: CustomerDesk, settings: WalletSettings, services: WalletServices, receipts: WalletReceipts, report: @escaping WalletEventReporter) {
        self.receipts = receipts
        self.desk = desk
        self.settings = settings
        self.services = services
        self.report = report
        (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
    }

    /// Runs the sheet to its end: the charge's outcome, or the attempt unchanged when the sheet was taken away.
    func run(
        _ opening: WalletSheet, attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async throws(ProviderFailure) -> PaymentAttempt {
        var sheet = opening
        var lookups: [Task<Void, Never>] = []
        defer {
            for lookup in lookups { lookup.cancel() }
            continuation.finish()
        }
        let processor = services.processor.name
        var serial = 0
        // Posed, not asked in a task: the prompt is up before a rates answer may replace it.
        func show(_ prompt: CustomerPrompt) async {
            serial += 1
            let (posed, continuation) = (serial, continuation)
            let answers = await desk.pose(prompt)
            Task {
                for await answer in answers {
                    continuation.yield(.answer(answer, promptID: prompt.id, serial: posed))
                    return
                }
            }
        }
        func lookUp(_ address: ShippingAddress) {
            let generation = sheet.chooseAddress(address)
            if sheet.collectsAddress {
                report(WalletEvent(.addressSelected, address.label.isEmpty ? address.oneLine : "\(address.label): \(address.oneLine)", fields: Self.fields(address)))
            }
            // Flat methods and contact-only requests ask no rates service.
            guard sheet.looksUpRates else { return }
            for lookup in lookups { lookup.cancel() }
            let (rates, continuation, order) = (services.rates, continuation, sheet.order)
            lookups = [Task {
                let outcome = await rates.rates(for: address, weightGrams: order.cart.weightGrams, currency: order.cart.currency)
                continuation.yield(.rates(outcome, generation: generation))
            }]
        }
        func sheetPrompt(_ notice: String? = nil) -> CustomerPrompt {
            WalletPrompts.sheet(sheet, settings: settings, processor: processor, notice: notice)
        }

        var screen = Screen.sheet
        var biometricFailures = 0
        lookUp(sheet.address)
        if !sheet.looksUpRates {
            // The methods are the merchant's own (or there are none): chosen and summed at once.
            if sheet.method != nil { reportMethod(sheet) } else { reportSummary(sheet) }
        }
        await show(sheetPrompt())
        for await input in inputs {
            switch input {
            case .rates(let outcome, let generation):
                guard sheet.ratesArrived(outcome, generation: generation) else { continue }
                reportRates(sheet)
                if screen == .sheet { await desk.replace(sheetPrompt()) }
            case .answer(_, _, let answered) where answered != serial:
                continue
            case .answer(nil, _, _):
                // Taken away: the attempt was abandoned (Esc, a new payment, quitting).
                return attempt
            case .answer(let answer?, let promptID, _):
                switch (screen, promptID, answer.action) {
                case (.sheet, WalletPrompts.sheetID, WalletPrompts.Action.pay):
                    if let reason = sheet.unpayableReason {
                        await show(sheetPrompt(reason))
                    } else {
                        (screen, biometricFailures) = (.confirm, 0)
                        await show(confirmPrompt(sheet, failures: 0))
                    }
                case (.sheet, WalletPrompts.sheetID, WalletPrompts.Action.close):
                    return declined(attempt, reason: sheet.unpayableReason ?? "the customer closed the sheet")
                case (.sheet, WalletPrompts.sheetID, _):
                    switch answer.choice {
                    case WalletPrompts.Row.card?:
                        screen = .cards
                        await show(WalletPrompts.cards(sheet, networks: settings.supportedNetworks))
                    case WalletPrompts.Row.address?:
                        screen = .addresses
                        await show(WalletPrompts.addresses(sheet, type: settings.shippingType))
                    case WalletPrompts.Row.method? where !sheet.options.isEmpty:
                        screen = .methods
                        await show(WalletPrompts.methods(sheet))
                    default:
                        await show(sheetPrompt())
                    }
                case (.cards, _, let action):
                    if action == WalletPrompts.Action.choose, let last4 = answer.choice { sheet.chooseCard(last4: last4) }
                    screen = .sheet
                    await show(sheetPrompt())
                case (.addresses, _, let action):
                    screen = .sheet
                    if action == WalletPrompts.Action.choose, answer.choice == WalletPrompts.Row.newAddress {
                        screen = .addressForm
                        await show(WalletPrompts.addressForm(name: sheet.contact.name, problem: nil))
                        continue
                    }
                    if action == WalletPrompts.Action.choose, let index = answer.choice.flatMap(Int.init), sheet.addresses.indices.contains(index) {
                        lookUp(sheet.addresses[index])
                    }
                    await show(sheetPrompt())
                case (.addressForm, _, _):
                    let values = answer.fields
                    if (values["street"] ?? "").trimmedOfWhitespace.isEmpty {
                        screen = .sheet
                        await show(sheetPrompt())
                        continue
                    }
                    let entered = ShippingAddress.fromForm(values)
                    if let problem = entered.validationProblem() {
                        await show(WalletPrompts.addressForm(name: sheet.contact.name, problem: problem, previous: values))
                        continue
                    }
                    screen = .sheet
                    lookUp(entered)
                    await show(sheetPrompt())
                case (.methods, _, let action):
                    if action == WalletPrompts.Action.choose, let id = answer.choice, sheet.chooseMethod(id) { reportMethod(sheet) }
                    screen = .sheet
                    await show(sheetPrompt())
                case (.confirm, _, WalletPrompts.Action.confirm):
                    return try await process(sheet, attempt: attempt, ids: ids, step: step, authorizedBy: "touch_id")
                case (.confirm, _, WalletPrompts.Action.failBiometric):
                    biometricFailures += 1
                    if biometricFailures >= 3 {
                        screen = .passcode
                        await show(WalletPrompts.passcode(problem: nil))
                    } else {
                        await show(confirmPrompt(sheet, failures: biometricFailures))
                    }
                case (.confirm, _, _):
                    screen = .sheet
                    await show(sheetPrompt())
                case (.passcode, _, _):
                    let passcode = answer.fields["passcode"] ?? ""
                    if passcode.isEmpty {
                        screen = .sheet
                        await show(sheetPrompt())
                    } else if passcode == settings.passcode {
                        return try await process(sheet, attempt: attempt, ids: ids, step: step, authorizedBy: "passcode")
                    } else {
                        await show(WalletPrompts.passcode(problem: "Wrong passcode. Try again (sandbox: \(WalletSettings.sandboxPasscode))."))
                    }
                default:
                    await show(sheetPrompt())
                }
            }
        }
        return attempt
    }

    private func confirmPrompt(_ sheet: WalletSheet, failures: Int) -> CustomerPrompt {
        let total = (try? sheet.summary().total.formatted) ?? "—"
        return WalletPrompts.confirm(total: total, merchant: sheet.order.merchantName, card: sheet.card, failures: failures)
    }

    private func reportRates(_ sheet: WalletSheet) {
        switch sheet.rates {
        case .loading:
            return
        case .invalidAddress:
            report(WalletEvent(.addressInvalid, "\(sheet.address.oneLine): \(WalletSheet.invalidAddressMessage)", fields: Self.fields(sheet.address)))
        case .failed(let reason):
            report(WalletEvent(.ratesFailed, "\(sheet.address.oneLine): \(reason)", fields: ["reason": reason]))
        case .loaded(let options):
            let cheapest = options.first.map { "\($0.label) \($0.amount.formatted)" } ?? ""
            report(WalletEvent(
                .ratesReceived, "\(options.count) rate\(options.count == 1 ? "" : "s") for \(sheet.address.oneLine), cheapest \(cheapest)",
                fields: ["count": String(options.count), "ids": options.map(\.id).joined(separator: ",")]))
            reportMethod(sheet)
        }
    }

    private func reportMethod(_ sheet: WalletSheet) {
        guard let method = sheet.method else { return }
        report(WalletEvent(
            .methodSelected, "\(method.label) \(method.amount.formatted) (\(method.detail))",
            fields: ["id": method.id, "label": method.label, "amount": String(method.amount.minorUnits), "arrival": method.detail]))
        reportSummary(sheet)
    }

    /// `summary_recomputed`: the sums, and the summary items exactly as the sheet shows them.
    private func reportSummary(_ sheet: WalletSheet) {
        guard let summary = try? sheet.summary() else { return }
        report(WalletEvent(
            .summaryRecomputed, "shipping \(summary.shipping.formatted), tax \(summary.tax.formatted), total \(summary.total.formatted)",
            fields: [
                "shipping": String(summary.shipping.minorUnits), "tax": String(summary.tax.minorUnits), "total": String(summary.total.minorUnits),
                "currency": summary.total.currency.code,
            ],
            items: sheet.summaryItems()))
    }

    /// The customer authorized: "Processing", the token, the processor's charge, the mark.
    private func process(
        _ sheet: WalletSheet, attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter, authorizedBy: String
    ) async throws(ProviderFailure) -> PaymentAttempt {
        report(WalletEvent(.authorized, "\(sheet.card.label) by \(authorizedBy == "passcode" ? "passcode" : "Touch ID")", fields: ["card": sheet.card.last4, "by": authorizedBy]))
        await step("processing")
        await desk.display(WalletPrompts.processing(.busy, title: "Processing", lines: [sheet.card.label]))
        guard let summary = try? sheet.summary(), sheet.unpayableReason == nil else {
            throw ProviderFailure(kind: .unexpected, category: "WALLET", code: "SHEET_NOT_PAYABLE", detail: sheet.unpayableReason)
        }
        let result: WalletChargeResult
        do throws(ProviderFailure) {
            let token = try await services.tokens.token(WalletTokenRequest(
                merchantIdentifier: settings.merchantIdentifier, network: sheet.card.network.rawValue, last4: sheet.card.last4,
                amount: summary.total.minorUnits, currency: summary.total.currency.code, transactionIdentifier: ids.idempotencyKey,
                countryCode: settings.countryCode, merchantCapabilities: settings.merchantCapabilities.map(\.rawValue)))
            result = try await services.processor.charge(WalletCharge(
                token: token, amount: summary.total, reference: attempt.reference ?? ids.reference, idempotencyKey: ids.idempotencyKey,
                address: sheet.address, contact: sheet.contact, shippingLabel: sheet.method?.label ?? ""))
        } catch {
            await showResult(.error("Payment Not Completed"), lines: [error.description])
            throw error
        }
        report(WalletEvent(
            .processed, "\(services.processor.name): \(result.approved ? "approved" : "declined \(result.declineReason ?? "")") \(result.paymentID ?? "")",
            fields: result.details.merging(["processor": services.processor.name.lowercased(), "approved": String(result.approved), "payment_id": result.paymentID ?? ""]) { given, _ in given }))
        await showResult(result.approved ? .ok("Done") : .error("Payment Not Completed"), lines: [result.declineReason.map { "Declined: \($0)" } ?? sheet.card.label])
        var decided = attempt
        decided.id = result.paymentID ?? attempt.id
        decided.amount = summary.total
        decided.status = result.approved ? .approved : .declined
        decided.grants = result.approved ? [result.paymentID ?? ids.reference] : []
        decided.declineReason = result.declineReason
        receipts.keep(
            reference: decided.reference ?? ids.reference,
            WalletReceipts.details(sheet: sheet, processor: services.processor.name, charge: result, by: authorizedBy, type: settings.shippingType),
            items: sheet.summaryItems())
        return decided
    }

    /// The sheet's last word (the success or failure mark), left up long enough to be seen; the
    /// checkout goes on at once (nobody waits for an animation, and headless runs see none).
    private func showResult(_ mark: PromptMark, lines: [String]) async {
        let shown = await desk.display(WalletPrompts.processing(mark, title: mark == .ok("Done") ? "Done" : "Payment Not Completed", lines: lines))
        let (desk, hold) = (desk, settings.resultMarkSeconds)
        Task {
            try? await Task.sleep(for: .milliseconds(Int(hold * 1000)))
            await desk.withdraw(displayed: shown)
        }
    }

    private func declined(_ attempt: PaymentAttempt, reason: String) -> PaymentAttempt {
        var closed = attempt
        closed.status = .declined
        closed.declineReason = reason
        return closed
    }

    /// The address in an event: one line, with the parts a filter wants. No `state` key: in
    /// `--json` lines that names the checkout's state.
    static func fields(_ address: ShippingAddress) -> [String: String] {
        ["label": address.label, "address": address.oneLine, "zip": address.zip, "country": address.country]
    }
}
