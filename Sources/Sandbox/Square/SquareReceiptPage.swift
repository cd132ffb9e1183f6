import Foundation
import Hummingbird
import ProviderWire

/// `GET /sandbox/square/receipts/{payment_id}`: the small receipt page a COMPLETED payment's
/// `receipt_url` points at, with what a card receipt must show (cardholder, brand and last 4,
/// entry method, and for a chip read the application name and AID).
struct SquareReceiptPage {
    let store: SquarePaymentStore
    let settings: SandboxSettings

    func page(id: String) async throws(SandboxStoreUnavailable) -> Response {
        guard SquareIDs.isPlausible(Substring(id)), let record = try await store.payment(id, now: settings.now(), limits: settings.limits),
            record.status == "COMPLETED"
        else {
            return SandboxResponse.html(Self.document(title: "Receipt not found", rows: [("", "No completed Square payment has this id.")]), status: .notFound)
        }
        let payment = record.payment
        let card = payment.cardDetails?.card
        var rows: [(String, String)] = [
            ("Merchant", settings.merchantName),
            ("Receipt", "#\(payment.receiptNumber ?? String(id.prefix(4)))"),
            ("Date", payment.updatedAt ?? payment.createdAt ?? ""),
            ("Amount", Self.money(payment.amountMoney)),
        ]
        if let tip = payment.tipMoney { rows.append(("Tip", Self.money(tip))) }
        rows.append(("Total", Self.money(payment.totalMoney)))
        rows.append(("Status", record.status))
        rows.append(("Card", "\(card?.cardBrand ?? "CARD") •••• \(card?.last4 ?? "????")"))
        if let name = card?.cardholderName { rows.append(("Cardholder", name)) }
        if let entry = payment.cardDetails?.entryMethod { rows.append(("Entry", entry)) }
        if let application = payment.cardDetails?.applicationName { rows.append(("Application", application)) }
        if let aid = payment.cardDetails?.applicationIdentifier { rows.append(("AID", aid)) }
        if let reference = payment.referenceID { rows.append(("Reference", reference)) }
        if let note = payment.note { rows.append(("Note", note)) }
        if payment.isOfflinePayment == true { rows.append(("Taken", "offline, \(payment.offlinePaymentDetails?.clientCreatedAt ?? "")")) }
        rows.append(("Payment", id))
        return SandboxResponse.html(Self.document(title: "Receipt", rows: rows))
    }

    /// "12.34 USD", from minor units (two decimals; the sandbox's currencies all have two).
    static func money(_ money: SquareMoney?) -> String {
        guard let money else { return "" }
        let (whole, cents) = money.amount.quotientAndRemainder(dividingBy: 100)
        return "\(whole).\(cents < 10 ? "0" : "")\(cents) \(money.currency)"
    }

    static func document(title: String, rows: [(String, String)]) -> String {
        let body = rows.map { "<tr><th>\(escape($0.0))</th><td>\(escape($0.1))</td></tr>" }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>\(escape(title))</title></head>
            <body><h1>\(escape(title))</h1>
            <table>
            \(body)
            </table>
            </body></html>
            """
    }

    static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
