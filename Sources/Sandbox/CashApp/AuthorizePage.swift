import Foundation
import ProviderWire

/// The page a customer sees after scanning the QR code or opening the link.
enum AuthorizePage {
    /// `linkToken`: the `t=` the page was opened with, already checked to be this request's; its
    /// buttons then carry it, so they work for whoever holds the link without the sandbox's
    /// control token.
    static func render(_ request: CustomerRequest, staleLink: Bool, linkToken: String? = nil) -> String {
        let merchant = escape(request.requesterProfile?.name ?? "the merchant")
        let amount = request.oneTimeAmount.map { formatted(minorUnits: $0.minorUnits, currency: $0.currency) }
            ?? (request.actions.contains { $0.type == .ONE_TIME_PAYMENT } ? "a one-time payment of any amount" : "an on-file payment")
        let body: String
        switch request.status {
        case .PENDING, .PROCESSING:
            let link = linkToken.map { "?t=" + escape($0) } ?? ""
            let notice = staleLink ? "<p class=note>This link has rotated; it still works here, but scan the newest code next time.</p>" : ""
            body = """
                <p>\(merchant) asks you to pay <strong>\(escape(amount))</strong>.</p>\(notice)
                <form method=post action="/sandbox/customer-requests/\(request.id)/approve\(link)"><button>Approve</button></form>
                <form method=post action="/sandbox/customer-requests/\(request.id)/decline\(link)"><button class=decline>Decline</button></form>
                """
        case .APPROVED:
            body = "<p>Approved: \(escape(amount)) to \(merchant). You can close this page.</p>"
        case .DECLINED:
            body = "<p>Declined. Nothing was charged.</p>"
        }
        return document(title: "Cash App Pay sandbox", body: "<h1>Cash App Pay (sandbox)</h1><p class=id>\(escape(request.id))</p>\(body)")
    }

    static func notFound(id: String) -> String {
        document(title: "Not found", body: "<h1>No such request</h1><p>\(escape(id)) is not known to this sandbox.</p>")
    }

    private static func document(title: String, body: String) -> String {
        """
        <!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport content="width=device-width">
        <title>\(escape(title))</title><style>body{font-family:system-ui,sans-serif;max-width:28em;margin:2em auto;padding:0 1em}
        button{font-size:1.2em;padding:.5em 2em;margin:.3em 0;background:#00d64f;border:0;border-radius:8px;color:#fff}
        button.decline{background:#666}.id{color:#888;font-family:monospace}.note{color:#a60}</style></head>
        <body>\(body)</body></html>
        """
    }

    private static func formatted(minorUnits: Int, currency: String) -> String {
        let sign = minorUnits < 0 ? "-" : ""
        let value = abs(minorUnits)
        let cents = value % 100
        return "\(sign)\(currency == "USD" ? "$" : currency + " ")\(value / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    static func escape(_ text: String) -> String { HTMLText.escape(text) }
}
