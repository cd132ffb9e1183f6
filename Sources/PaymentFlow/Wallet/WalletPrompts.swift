import CheckoutModel
import Foundation

/// The sheet and its pickers as prompts the screen draws and `checkout run` answers.
enum WalletPrompts {
    static let sheetID = "wallet"
    static let cardID = "wallet-card"
    static let addressID = "wallet-address"
    static let addressFormID = "wallet-address-form"
    static let methodID = "wallet-method"
    static let confirmID = "wallet-confirm"
    static let passcodeID = "wallet-passcode"
    static let processingID = "wallet-processing"
    static let cardFormID = "wallet-card-form"

    enum Row {
        static let card = "card"
        static let address = "address"
        static let method = "method"
        static let contact = "contact"
        static let billing = "billing"
        static let newAddress = "new"
    }

    enum Action {
        static let change = "change"
        static let pay = "pay"
        static let close = "close"
        static let choose = "choose"
        static let back = "back"
        static let confirm = "confirm"
        static let failBiometric = "fail"
        static let submit = "submit"
    }

    /// The sheet: card, address, method, contact, then the summary items with the total last.
    static func sheet(_ sheet: WalletSheet, settings: WalletSettings, processor: String, notice: String? = nil) -> CustomerPrompt {
        let type = settings.shippingType
        var choices = [PromptChoice(id: Row.card, label: sheet.card.label, detail: "", heading: "PAY WITH")]
        if sheet.collectsAddress {
            choices.append(PromptChoice(
                id: Row.address, label: addressLabel(sheet.address), detail: "\(sheet.address.city) \(sheet.address.zip) \(sheet.address.country)",
                heading: type.addressHeading, mark: sheet.rates == .invalidAddress ? .error(WalletSheet.invalidAddressMessage) : nil))
        }
        if sheet.shippingSource != .none { choices.append(methodRow(sheet, heading: type.methodHeading)) }
        if !settings.requiredContactFields.filter({ $0 != .postalAddress }).isEmpty {
            choices.append(PromptChoice(
                id: Row.contact, label: contactLine(sheet.contact, fields: settings.requiredContactFields), detail: "", heading: "CONTACT", selectable: false))
        }
        if !settings.requiredBillingFields.isEmpty {
            choices.append(PromptChoice(
                id: Row.billing, label: billingLine(sheet, fields: settings.requiredBillingFields), detail: "", heading: "BILLING", selectable: false))
        }
        let summary = try? sheet.summary()
        for (index, line) in (summary?.lines ?? []).enumerated() where line.kind != .total {
            choices.append(PromptChoice(
                id: "line-\(index)", label: line.label,
                detail: line.kind == .shipping && sheet.method?.pending == true ? "Amount pending" : line.amount.formatted, heading: index == 0 ? "SUMMARY" : nil, selectable: false))
        }
        let total = summary?.total.formatted ?? "—"
        choices.append(PromptChoice(id: "total", label: WalletSummary.payLabel(merchant: sheet.order.merchantName), detail: total, selectable: false, emphasis: true))

        let reason = sheet.unpayableReason
        var scripted: [String: PromptAnswer] = [:]
        if reason == nil {
            scripted = ["approve": PromptAnswer(action: Action.pay), "approve-after": PromptAnswer(action: Action.pay), "decline": PromptAnswer(action: Action.close)]
        } else if sheet.rates != .loading {
            // A scripted customer cannot pick another address: it closes the sheet.
            let close = PromptAnswer(action: Action.close)
            scripted = ["approve": close, "approve-after": close, "decline": close]
        }
        return CustomerPrompt(
            id: sheetID, title: "Wallet · \(processor)", lines: [notice ?? reason ?? "Press p, then p again, to pay (the side button's double-click)"],
            choices: choices, actions: [PromptAction(key: "Enter", label: "change", id: Action.change), PromptAction(key: "p", label: "pay", id: Action.pay)],
            scripted: scripted)
    }

    private static func methodRow(_ sheet: WalletSheet, heading: String) -> PromptChoice {
        switch sheet.rates {
        case .loading:
            return PromptChoice(id: Row.method, label: "Shipping rates", detail: "", heading: heading, mark: .busy)
        case .invalidAddress:
            return PromptChoice(id: Row.method, label: "No shipping to this address", detail: "—", heading: heading)
        case .failed(let reason):
            return PromptChoice(id: Row.method, label: "Shipping rates", detail: "", heading: heading, mark: .error("failed: \(reason)"))
        case .loaded:
            let method = sheet.method
            return PromptChoice(
                id: Row.method, label: method?.label ?? "Choose a method", detail: method.map { "\($0.detail) · \($0.priceText)" } ?? "",
                heading: heading)
        }
    }

    /// The BILLING row: the required billing fields, the billing address as its one line.
    static func billingLine(_ sheet: WalletSheet, fields: [ContactField]) -> String {
        var parts: [String] = []
        if fields.contains(.name) { parts.append(sheet.contact.name) }
        if fields.contains(.postalAddress) {
            let billing = sheet.addresses.first ?? sheet.address
            parts.append(billing.street.isEmpty ? "billing address on file" : "\(billing.street), \(billing.city) \(billing.zip)")
        }
        if fields.contains(.email) { parts.append(sheet.contact.email) }
        if fields.contains(.phone) { parts.append(sheet.contact.phone) }
        return parts.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    static func addressLabel(_ address: ShippingAddress) -> String {
        address.label.isEmpty ? address.street : "\(address.label) · \(address.street)"
    }

    static func contactLine(_ contact: WalletContact, fields: [ContactField]) -> String {
        var parts: [String] = []
        if fields.contains(.name) { parts.append(contact.name) }
        if fields.contains(.email) { parts.append(contact.email) }
        if fields.contains(.phone) { parts.append(contact.phone) }
        return parts.joined(separator: " · ")
    }

    static func cards(_ sheet: WalletSheet, networks: [CardNetwork]) -> CustomerPrompt {
        let eligible = sheet.eligibleCards.map { PromptChoice(id: $0.last4, label: $0.label, detail: $0 == sheet.card ? "✓" : "") }
        let accepted = networks.map(\.displayName).joined(separator: ", ")
        let refused = sheet.ineligibleCards.map { PromptChoice(id: "x-\($0.last4)", label: $0.label, detail: "not accepted here", selectable: false) }
        return CustomerPrompt(
            id: cardID, title: "Pay with", lines: ["This shop accepts \(accepted)."], choices: eligible + refused,
            actions: [PromptAction(key: "Enter", label: "choose", id: Action.choose), PromptAction(key: "b", label: "back", id: Action.back)],
            cursor: eligible.firstIndex { $0.id == sheet.card.last4 })
    }

    static func addresses(_ sheet: WalletSheet, type: WalletSettings.ShippingType = .shipping) -> CustomerPrompt {
        var choices = sheet.addresses.enumerated().map { index, address in
            PromptChoice(id: String(index), label: addressLabel(address), detail: "\(address.city) \(address.zip) \(address.country)")
        }
        choices.append(PromptChoice(id: Row.newAddress, label: "Enter a new address…"))
        return CustomerPrompt(
            id: addressID, title: type.addressTitle,
            lines: [sheet.looksUpRates ? "Each address asks the rates service for its shipping methods." : "The merchant's methods do not depend on the address."],
            choices: choices,
            actions: [PromptAction(key: "Enter", label: "choose", id: Action.choose), PromptAction(key: "b", label: "back", id: Action.back)],
            cursor: sheet.addresses.firstIndex(of: sheet.address))
    }

    static let addressFields = ["name", "street", "city", "state", "zip", "country"]

    static func addressForm(name: String, problem: String?, previous: [String: String] = [:]) -> CustomerPrompt {
        let labels = ["name": "Name", "street": "Street", "city": "City", "state": "State", "zip": "ZIP", "country": "Country"]
        let hints = ["state": "e.g. OR", "zip": "e.g. 97209", "country": "2 letters, e.g. US"]
        let fields = addressFields.map { id in
            PromptField(id: id, label: labels[id] ?? id, value: previous[id] ?? (id == "name" ? name : id == "country" ? "US" : ""), allowed: hints[id])
        }
        return CustomerPrompt(
            id: addressFormID, title: "New shipping address",
            lines: [problem ?? "Tab moves between fields; Enter with the street empty goes back."],
            actions: [PromptAction(key: "Enter", label: "use this address", id: Action.submit)], fields: fields)
    }

    static func methods(_ sheet: WalletSheet) -> CustomerPrompt {
        let choices = sheet.options.map { PromptChoice(id: $0.id, label: $0.label, detail: "\($0.detail) · \($0.priceText)") }
        return CustomerPrompt(
            id: methodID, title: "Shipping method", lines: [sheet.collectsAddress ? "To \(addressLabel(sheet.address))" : "The merchant's methods"], choices: choices,
            actions: [PromptAction(key: "Enter", label: "choose", id: Action.choose), PromptAction(key: "b", label: "back", id: Action.back)],
            cursor: sheet.options.firstIndex { $0.id == sheet.methodID })
    }

    /// The side button's second press: `p` again pays; `x` stands for a finger Touch ID does not know.
    static func confirm(total: String, merchant: String, card: SavedCard, failures: Int) -> CustomerPrompt {
        var lines = ["\(WalletSummary.payLabel(merchant: merchant)) \(total)", card.label, "Press p again to confirm (double-click the side button)."]
        if failures > 0 { lines.append("Touch ID not recognised (\(failures) of 3). Try again.") }
        let confirm = PromptAnswer(action: Action.confirm)
        return CustomerPrompt(
            id: confirmID, title: "Confirm with Side Button", lines: lines,
            actions: [
                PromptAction(key: "p", label: "confirm", id: Action.confirm), PromptAction(key: "x", label: "Touch ID fails", id: Action.failBiometric),
                PromptAction(key: "b", label: "back", id: Action.back),
            ],
            scripted: ["approve": confirm, "approve-after": confirm])
    }

    static func passcode(problem: String?) -> CustomerPrompt {
        CustomerPrompt(
            id: passcodeID, title: "Enter Passcode",
            lines: [problem ?? "Touch ID failed 3 times: the passcode (sandbox \(WalletSettings.sandboxPasscode)).", "Enter it empty to go back to the sheet."],
            actions: [PromptAction(key: "Enter", label: "pay", id: Action.submit)],
            fields: [PromptField(id: "passcode", label: "Passcode", value: "", secret: true, allowed: "6 digits")])
    }

    /// "Processing", then the result mark; nothing to answer, so nothing waits on it.
    static func processing(_ mark: PromptMark, title: String, lines: [String]) -> CustomerPrompt {
        CustomerPrompt(
            id: processingID, title: title, lines: lines,
            choices: [PromptChoice(id: "status", label: mark == .busy ? "Processing" : "", detail: "", mark: mark, selectable: false)],
            actions: [], abandonable: false)
    }

    static let cardFormFields = ["number", "expiry", "cvc", "zip"]

    /// The merchant's own card form, when no card in the wallet is accepted.
    static func cardForm(reason: String, problem: String?, previous: [String: String]) -> CustomerPrompt {
        let labels = ["number": "Card number", "expiry": "Expiry", "cvc": "CVC", "zip": "ZIP"]
        let hints = ["number": "e.g. 4111 1111 1111 1111", "expiry": "MM/YY", "cvc": "3 or 4 digits", "zip": "billing ZIP"]
        let fields = cardFormFields.map { PromptField(id: $0, label: labels[$0] ?? $0, value: previous[$0] ?? "", secret: $0 == "cvc", allowed: hints[$0]) }
        let ok = PromptAnswer(action: Action.submit, fields: ["number": "4111111111111111", "expiry": "12/30", "cvc": "123", "zip": "97209"])
        let declined = PromptAnswer(action: Action.submit, fields: ["number": "4000000000000002", "expiry": "12/30", "cvc": "123", "zip": "97209"])
        return CustomerPrompt(
            id: cardFormID, title: "Pay by card", lines: [reason, problem ?? "Keyed entry through Square. Tab moves between fields."],
            actions: [PromptAction(key: "Enter", label: "pay", id: Action.submit)],
            scripted: ["approve": ok, "approve-after": ok, "decline": declined], fields: fields)
    }
}
