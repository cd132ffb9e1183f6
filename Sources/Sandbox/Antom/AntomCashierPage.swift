import Foundation
import ProviderWire

/// The hosted cashier's pages: the session's banks, and each bank's page where the customer
/// pays, fails or leaves. Self-contained HTML, every piece of text from a request escaped, the
/// words in the page's locale (`en_US`, `th_TH`, `in_ID`; anything else is English).
struct AntomCashierPage {
    let record: AntomSessionRecord
    let merchant: String
    let locale: AntomLocale

    var words: AntomLocale.Words { locale.words }

    /// The bank list, or the session's outcome once it is not PROCESSING.
    func cashier() -> String {
        var body = header()
        if record.status == .processing {
            let links = record.banks.map { bank in
                let href = "/sandbox/antom/cashier/\(record.id)/banks/\(bank.bankName)?locale=\(locale.rawValue)"
                return "<li><a href=\"\(Self.escape(href))\">\(Self.escape(locale.name(of: bank)))</a> <span class=kind>\(Self.escape(bank.bankName))</span></li>"
            }
            body += "<h2>\(Self.escape(words.chooseBank))</h2><ul class=banks>\(links.joined())</ul>"
        } else {
            body += outcome()
        }
        return document(body + languages(page: "page"))
    }

    /// One bank's page: the amount and Pay / Fail / Leave, or the session's outcome.
    func bank(_ bank: AntomBank) -> String {
        var body = header() + "<h2>\(Self.escape(locale.name(of: bank)))</h2>"
        if record.status == .processing {
            let query = "bank=\(bank.bankName)&locale=\(locale.rawValue)"
            let action = "/sandbox/antom/cashier/\(record.id)"
            body += """
                <form method=post action="\(Self.escape("\(action)/pay?\(query)"))"><button class=pay>\(Self.escape(words.pay))</button></form>
                <form method=post action="\(Self.escape("\(action)/fail?\(query)"))"><button class=fail>\(Self.escape(words.fail))</button></form>
                <form method=post action="\(Self.escape("\(action)/abandon?\(query)"))"><button class=leave>\(Self.escape(words.leave))</button></form>
                <p><a href="\(Self.escape("\(action)/page?locale=\(locale.rawValue)"))">\(Self.escape(words.back))</a></p>
                """
        } else {
            body += outcome()
        }
        return document(body + languages(page: "banks/\(bank.bankName)"))
    }

    /// Why the customer could not act (the session moved on), above its outcome.
    func refused(_ notice: String) -> String {
        document(header() + "<p class=notice>\(Self.escape(notice))</p>" + outcome())
    }

    static func notFound(locale: AntomLocale, what: String) -> String {
        AntomCashierPage.plain(title: locale.words.title, message: "\(locale.words.notFound) (\(what))", lang: locale.lang)
    }

    private func header() -> String {
        var rows = [
            (words.merchant, merchant), (words.amount, Self.money(record.amount)), (words.order, record.referenceOrderId),
        ]
        if record.status == .processing { rows.append((words.expires, AntomTime.string(record.expiresAt))) }
        let table = rows.map { "<tr><th>\(Self.escape($0.0))</th><td>\(Self.escape($0.1))</td></tr>" }.joined()
        return "<h1>\(Self.escape(words.title))</h1><table>\(table)</table>"
    }

    /// What became of the session, in words.
    private func outcome() -> String {
        switch record.status {
        case .success:
            var text = "<p class=done>\(Self.escape(words.paid))</p>"
            if let link = Self.returnLink(record.request.paymentRedirectUrl) {
                text += "<p><a href=\"\(Self.escape(link))\">\(Self.escape(words.returnToMerchant))</a></p>"
            }
            return text
        case .pending: return "<p class=done>\(Self.escape(words.pending))</p>"
        case .fail: return "<p class=failed>\(Self.escape(words.failed)) (\(Self.escape(record.resultCode ?? "")))</p>"
        case .cancelled:
            let reason =
                switch record.closure {
                case .expired?: words.expired
                case .abandoned?: words.abandoned
                case .superseded?: words.superseded
                case nil: words.closed
                }
            return "<p class=failed>\(Self.escape(words.closed)): \(Self.escape(reason))</p>"
        case .processing: return ""
        }
    }

    private func languages(page: String) -> String {
        let links = AntomLocale.allCases.map { other in
            "<a href=\"\(Self.escape("/sandbox/antom/cashier/\(record.id)/\(page)?locale=\(other.rawValue)"))\">\(Self.escape(other.words.language))</a>"
        }
        return "<p class=languages>\(links.joined(separator: " · "))</p>"
    }

    private func document(_ body: String) -> String {
        Self.document(title: words.title, body: body, lang: locale.lang)
    }

    static func plain(title: String, message: String, lang: String) -> String {
        document(title: title, body: "<h1>\(escape(title))</h1><p>\(escape(message))</p>", lang: lang)
    }

    static func document(title: String, body: String, lang: String) -> String {
        """
        <!doctype html><html lang=\(lang)><head><meta charset=utf-8><meta name=viewport content="width=device-width">
        <title>\(escape(title))</title><style>body{font-family:system-ui,sans-serif;max-width:30em;margin:2em auto;padding:0 1em}
        th{text-align:left;padding-right:1em;color:#555}ul.banks{list-style:none;padding:0}ul.banks li{margin:.6em 0;font-size:1.1em}
        .kind{color:#888;font-family:monospace}button{font-size:1.1em;padding:.5em 2em;margin:.3em 0;border:0;border-radius:8px;color:#fff;width:100%}
        button.pay{background:#1677ff}button.fail{background:#c0392b}button.leave{background:#777}.done{color:#1a7f37}.failed{color:#c0392b}
        .notice{background:#fff4e5;padding:.5em}.languages{margin-top:2em;color:#888}</style></head>
        <body>\(body)</body></html>
        """
    }

    /// The redirect URL as a link, unless its scheme could run script.
    static func returnLink(_ url: String) -> String? {
        guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), !["javascript", "data", "vbscript", "file"].contains(scheme) else { return nil }
        return url
    }

    /// "1,290.00 THB": minor units with two decimals (Antom counts every currency here in hundredths).
    static func money(_ amount: AntomAmount) -> String {
        let minor = amount.minorUnits ?? 0
        let (whole, cents) = minor.quotientAndRemainder(dividingBy: 100)
        var digits = String(whole)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return "\(digits)\(grouped).\(cents < 10 ? "0" : "")\(cents) \(amount.currency)"
    }

    /// HTML-escaped (`& < > " '`), as the sandbox's other pages escape.
    static func escape(_ text: String) -> String { HTMLText.escape(text) }
}

/// The cashier's languages: what `locale=` may say.
enum AntomLocale: String, CaseIterable, Sendable {
    case english = "en_US"
    case thai = "th_TH"
    case indonesian = "in_ID"

    /// `locale=` as given; anything unknown is English.
    init(query: String?) {
        self = query.flatMap(AntomLocale.init(rawValue:)) ?? .english
    }

    var lang: String {
        switch self {
        case .english: "en"
        case .thai: "th"
        case .indonesian: "id"
        }
    }

    /// A bank as this language names it.
    func name(of bank: AntomBank) -> String {
        self == .thai && bank.country == "TH" ? bank.localName : bank.displayName
    }

    struct Words {
        let language, title, merchant, amount, order, expires, chooseBank, pay, fail, leave, back: String
        let paid, pending, failed, closed, expired, abandoned, superseded, returnToMerchant, notFound: String
    }

    var words: Words {
        switch self {
        case .english:
            Words(
                language: "English", title: "Antom cashier (sandbox)", merchant: "Merchant", amount: "Amount", order: "Order",
                expires: "Pay before", chooseBank: "Choose your bank", pay: "Pay", fail: "Fail (balance not enough)",
                leave: "Leave without paying", back: "Back to the banks", paid: "Paid. You can return to the merchant.",
                pending: "Your bank has paid; the payment is being confirmed.", failed: "The payment failed",
                closed: "This payment is closed", expired: "its time ran out before it was paid.",
                abandoned: "you left without paying.", superseded: "the order moved on to a newer payment.",
                returnToMerchant: "Return to the merchant", notFound: "No such payment session")
        case .thai:
            Words(
                language: "ไทย", title: "แคชเชียร์ Antom (แซนด์บ็อกซ์)", merchant: "ร้านค้า", amount: "จำนวนเงิน", order: "คำสั่งซื้อ",
                expires: "ชำระภายใน", chooseBank: "เลือกธนาคารของคุณ", pay: "ชำระเงิน", fail: "ไม่สำเร็จ (ยอดเงินไม่พอ)",
                leave: "ออกโดยไม่ชำระเงิน", back: "กลับไปที่รายการธนาคาร", paid: "ชำระเงินแล้ว คุณกลับไปที่ร้านค้าได้",
                pending: "ธนาคารของคุณชำระเงินแล้ว กำลังรอการยืนยัน", failed: "การชำระเงินไม่สำเร็จ",
                closed: "การชำระเงินนี้ปิดแล้ว", expired: "หมดเวลาก่อนที่จะชำระเงิน",
                abandoned: "คุณออกไปโดยไม่ได้ชำระเงิน", superseded: "คำสั่งซื้อนี้ย้ายไปใช้การชำระเงินใหม่แล้ว",
                returnToMerchant: "กลับไปที่ร้านค้า", notFound: "ไม่พบรายการชำระเงินนี้")
        case .indonesian:
            Words(
                language: "Bahasa Indonesia", title: "Kasir Antom (sandbox)", merchant: "Penjual", amount: "Jumlah", order: "Pesanan",
                expires: "Bayar sebelum", chooseBank: "Pilih bank Anda", pay: "Bayar", fail: "Gagal (saldo tidak cukup)",
                leave: "Keluar tanpa membayar", back: "Kembali ke daftar bank", paid: "Sudah dibayar. Anda dapat kembali ke penjual.",
                pending: "Bank Anda sudah membayar; pembayaran sedang dikonfirmasi.", failed: "Pembayaran gagal",
                closed: "Pembayaran ini sudah ditutup", expired: "waktunya habis sebelum dibayar.",
                abandoned: "Anda keluar tanpa membayar.", superseded: "pesanan ini beralih ke pembayaran yang lebih baru.",
                returnToMerchant: "Kembali ke penjual", notFound: "Sesi pembayaran tidak ditemukan")
        }
    }
}
