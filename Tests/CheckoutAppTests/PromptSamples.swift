import CheckoutApp
import PaymentFlow
import TerminalUI

/// Synthetic prompts shaped like a wallet's sheet and its address form.
enum PromptSamples {
    /// Summary lines around two choices: the cursor may rest on `visa` and `usps` only.
    static let summaryFirst = CustomerPrompt(
        id: "sheet", title: "Wallet",
        choices: [
            PromptChoice(id: "subtotal", label: "Subtotal", detail: "$42.30", selectable: false),
            PromptChoice(id: "visa", label: "Visa •••• 4242", heading: "CARD"),
            PromptChoice(id: "tax", label: "Sales tax", detail: "$2.75", selectable: false),
            PromptChoice(id: "usps", label: "USPS Ground", heading: "SHIPPING METHOD", mark: .busy),
            PromptChoice(id: "total", label: "PAY DRIFTWOOD COFFEE CO.", detail: "$45.05", selectable: false, emphasis: true),
        ],
        actions: [PromptAction(key: "Enter", label: "pay", id: "pay")])

    /// Eighteen rows: four sections, a busy rate, a refused address, a verified email, the total.
    static let sheet = CustomerPrompt(
        id: "sheet", title: "Wallet · Driftwood Coffee Co.", lines: ["Double-check the order, then pay"],
        choices: [
            PromptChoice(id: "visa", label: "Visa •••• 4242", detail: "debit", heading: "CARD"),
            PromptChoice(id: "mastercard", label: "Mastercard •••• 4444", detail: "credit"),
            PromptChoice(id: "amex", label: "Amex •••• 8431", detail: "expires 04/27"),
            PromptChoice(id: "home", label: "Ada Lovelace · 12 Hope St", detail: "Brooklyn NY 11201", heading: "SHIP TO"),
            PromptChoice(id: "office", label: "Ada Lovelace · 1 Main St", mark: .error("ZIP 99999 is not served")),
            PromptChoice(id: "pickup", label: "Pick up in store", detail: "Driftwood, 3rd Ave"),
            PromptChoice(id: "usps", label: "USPS Ground Advantage", detail: "$5.40 · Thu Jan 21", heading: "SHIPPING METHOD"),
            PromptChoice(id: "ups", label: "UPS 2nd Day Air", mark: .busy),
            PromptChoice(id: "fedex", label: "FedEx Priority Overnight", mark: .busy),
            PromptChoice(id: "intl", label: "USPS Priority Mail International", detail: "$38.75 · 6-10 days"),
            PromptChoice(id: "email", label: "ada@example.com", heading: "CONTACT", mark: .ok("verified")),
            PromptChoice(id: "phone", label: "+1 415 555 0100"),
            PromptChoice(id: "total", label: "PAY DRIFTWOOD COFFEE CO.", detail: "$45.05", selectable: false, emphasis: true),
        ],
        actions: [PromptAction(key: "Enter", label: "pay", id: "pay"), PromptAction(key: "e", label: "edit address", id: "edit")])

    static let address = CustomerPrompt(
        id: "address", title: "Shipping address", lines: ["Where should the order go?"],
        actions: [PromptAction(key: "Enter", label: "save", id: "save"), PromptAction(key: "x", label: "cancel", id: "cancel")],
        fields: [
            PromptField(id: "name", label: "Full name"),
            PromptField(id: "street", label: "Street"),
            PromptField(id: "state", label: "State", allowed: "2 letters"),
            PromptField(id: "zip", label: "ZIP", value: "11201", allowed: "5 digits"),
            PromptField(id: "card", label: "Card number", value: "4111", secret: true),
        ])

    /// Each character of `text` as a key press.
    static func keys(_ text: String) -> [AppMessage] { text.map { .key(.character($0)) } }
}
