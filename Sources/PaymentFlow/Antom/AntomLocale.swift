/// The component's languages (the seed's `locale`): its words on the screen and the bank page.
/// Anything else falls back to English, and the checkout says so once.
public enum AntomLocale: String, CaseIterable, Hashable, Sendable, Codable {
    case english = "en_US"
    case indonesian = "in_ID"
    case thai = "th_TH"

    /// The locale for a spelling, and whether it fell back to English.
    public static func resolve(_ spelling: String?) -> (locale: AntomLocale, fellBack: Bool) {
        guard let spelling else { return (.english, false) }
        if let known = AntomLocale(rawValue: spelling) { return (known, false) }
        return (.english, true)
    }

    public static var spellings: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The sentence said once when `spelling` is not a locale the component has.
    public static func fallbackNotice(_ spelling: String) -> String {
        "locale \(spelling.prefix(32)) is not one the bank component speaks (\(spellings)); showing English (en_US)"
    }

    /// The banner's sentences, by state name, in this locale.
    public var stateSentences: [String: String] {
        switch self {
        case .english:
            [
                "creatingCustomerRequest": "Creating the Antom payment session…",
                "readyToAuthorize": "Banks are ready: press p to go to the bank.",
                "redirecting": "Opening the bank's page…",
                "polling": "Waiting for the customer to pay at the bank…",
                "refreshing": "The payment session expired; creating a new one…",
                "approved": "Paid at the bank.",
                "declined": "The bank payment did not go through.",
            ]
        case .thai:
            [
                "creatingCustomerRequest": "กำลังสร้างเซสชันการชำระเงิน…",
                "readyToAuthorize": "เลือกธนาคารได้แล้ว: กด p เพื่อไปที่ธนาคาร",
                "redirecting": "กำลังเปิดหน้าธนาคาร…",
                "polling": "รอลูกค้าชำระเงินที่ธนาคาร…",
                "refreshing": "เซสชันหมดอายุ กำลังสร้างใหม่…",
                "approved": "ชำระเงินที่ธนาคารแล้ว",
                "declined": "การชำระเงินผ่านธนาคารไม่สำเร็จ",
            ]
        case .indonesian:
            [
                "creatingCustomerRequest": "Membuat sesi pembayaran Antom…",
                "readyToAuthorize": "Bank siap: tekan p untuk ke bank.",
                "redirecting": "Membuka halaman bank…",
                "polling": "Menunggu pelanggan membayar di bank…",
                "refreshing": "Sesi pembayaran kedaluwarsa; membuat yang baru…",
                "approved": "Dibayar di bank.",
                "declined": "Pembayaran bank tidak berhasil.",
            ]
        }
    }

    /// The words beside the QR code.
    public var scanCaption: String {
        switch self {
        case .english: "Scan to pay at your bank"
        case .thai: "สแกนเพื่อชำระเงินที่ธนาคาร"
        case .indonesian: "Pindai untuk membayar di bank Anda"
        }
    }

    /// "Banks:" before the list of banks offered.
    public var banksLabel: String {
        switch self {
        case .english: "Banks"
        case .thai: "ธนาคาร"
        case .indonesian: "Bank"
        }
    }
}
