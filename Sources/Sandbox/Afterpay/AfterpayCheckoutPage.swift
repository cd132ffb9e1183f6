import Foundation
import Hummingbird
import ProviderWire

/// `GET /sandbox/afterpay/checkout?token=…`: where a checkout's `redirectCheckoutUrl` points. Real
/// Afterpay shows its consumer portal there; this sandbox takes Afterpay checkouts only as Cash App
/// Pay (sign-payment, the customer approves the Cash App Pay request, validate-payment, capture), so
/// the page shows the checkout and says how it is paid here, rather than leaving the link a 404.
struct AfterpayCheckoutPage {
    let store: AfterpayStore
    let settings: SandboxSettings

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.get("sandbox/afterpay/checkout") { request, _ in try await page(token: request.uri.queryParameters.get("token")) }
    }

    private func page(token: String?) async throws(SandboxStoreUnavailable) -> Response {
        try await store.evictDue(now: settings.now(), limits: settings.limits)
        guard let token, !token.isEmpty, let checkout = try await store.checkout(token: token) else {
            let what = token.map { "No Afterpay checkout has the token \($0.prefix(64)) (unknown, or expired and forgotten)." }
                ?? "No token: open the checkout's redirectCheckoutUrl (it ends in ?token=…)."
            return SandboxResponse.html(Self.document(rows: [], message: what, title: "Checkout not found"), status: .notFound)
        }
        var rows = [("Merchant", settings.merchantName)]
        if let reference = checkout.request.merchantReference { rows.append(("Order", reference)) }
        if let amount = checkout.request.amount { rows.append(("Amount", "\(amount.amount) \(amount.currency)")) }
        rows.append(("Expires", ISO8601Milliseconds.string(from: checkout.expires)))
        let message: String
        if let payment = checkout.payment {
            rows.append(("Payment", "\(payment.id) \(payment.status)"))
            message = "This checkout is captured; nothing is left to do here."
        } else {
            message = "This sandbox pays Afterpay checkouts with Cash App Pay: the merchant signs the payment "
                + "(POST /v2/payments/sign-payment), the customer approves the Cash App Pay request on its page, "
                + "then the merchant validates and captures."
        }
        return SandboxResponse.html(Self.document(rows: rows, message: message, title: "Afterpay checkout (sandbox)"))
    }

    static func document(rows: [(String, String)], message: String, title: String) -> String {
        let table = rows.map { "<tr><th>\(HTMLText.escape($0.0))</th><td>\(HTMLText.escape($0.1))</td></tr>" }.joined()
        return """
            <!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport content="width=device-width">
            <title>\(HTMLText.escape(title))</title><style>body{font-family:system-ui,sans-serif;max-width:30em;margin:2em auto;padding:0 1em}
            th{text-align:left;padding-right:1em;color:#555}</style></head>
            <body><h1>\(HTMLText.escape(title))</h1>\(table.isEmpty ? "" : "<table>\(table)</table>")<p>\(HTMLText.escape(message))</p></body></html>
            """
    }
}
