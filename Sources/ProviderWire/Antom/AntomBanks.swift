import Foundation

/// The bank payment methods the cashier offers, and the merchant's three ways of choosing which
/// to show (the seed's display modes).

/// A bank method's kind, as `paymentMethodCategory` spells it.
public enum AntomBankCategory: String, Codable, Hashable, Sendable, CaseIterable {
    case bankTransfer = "BANK_TRANSFER"
    case mobileBankingApp = "MOBILE_BANKING_APP"
    case onlineBanking = "ONLINE_BANKING"
}

/// One bank of the catalogue.
public struct AntomBank: Codable, Hashable, Sendable {
    /// What `bankName` says (`SCB`, `BCA`, …).
    public var bankName: String
    /// Its name in English, and in the country's own language.
    public var displayName: String
    public var localName: String
    /// `TH` or `ID`.
    public var country: String
    public var categories: [AntomBankCategory]

    public init(bankName: String, displayName: String, localName: String, country: String, categories: [AntomBankCategory]) {
        self.bankName = bankName
        self.displayName = displayName
        self.localName = localName
        self.country = country
        self.categories = categories
    }
}

/// The banks the sandbox's cashier offers, by country and kind.
public enum AntomBankCatalogue {
    public static let countries = ["TH", "ID"]

    public static let banks: [AntomBank] = [
        AntomBank(bankName: "SCB", displayName: "Siam Commercial Bank", localName: "ธนาคารไทยพาณิชย์", country: "TH",
                  categories: [.mobileBankingApp, .onlineBanking, .bankTransfer]),
        AntomBank(bankName: "KBANK", displayName: "Kasikornbank", localName: "ธนาคารกสิกรไทย", country: "TH",
                  categories: [.mobileBankingApp, .onlineBanking, .bankTransfer]),
        AntomBank(bankName: "BBL", displayName: "Bangkok Bank", localName: "ธนาคารกรุงเทพ", country: "TH",
                  categories: [.mobileBankingApp, .onlineBanking]),
        AntomBank(bankName: "KTB", displayName: "Krungthai Bank", localName: "ธนาคารกรุงไทย", country: "TH",
                  categories: [.mobileBankingApp, .bankTransfer]),
        AntomBank(bankName: "BAY", displayName: "Krungsri (Bank of Ayudhya)", localName: "ธนาคารกรุงศรีอยุธยา", country: "TH",
                  categories: [.mobileBankingApp, .onlineBanking]),
        AntomBank(bankName: "BCA", displayName: "Bank Central Asia", localName: "Bank Central Asia", country: "ID",
                  categories: [.bankTransfer, .mobileBankingApp, .onlineBanking]),
        AntomBank(bankName: "MANDIRI", displayName: "Bank Mandiri", localName: "Bank Mandiri", country: "ID",
                  categories: [.bankTransfer, .mobileBankingApp]),
        AntomBank(bankName: "BNI", displayName: "Bank Negara Indonesia", localName: "Bank Negara Indonesia", country: "ID",
                  categories: [.bankTransfer, .onlineBanking]),
        AntomBank(bankName: "BRI", displayName: "Bank Rakyat Indonesia", localName: "Bank Rakyat Indonesia", country: "ID",
                  categories: [.bankTransfer, .mobileBankingApp]),
    ]

    public static func bank(named name: String) -> AntomBank? {
        banks.first { $0.bankName == name.uppercased() }
    }

    /// Names Antom's own pages give a bank besides its code: the seed's single-bank example sends
    /// `"bankName": "Siam Commerical Bank"` (the spelling of Antom's SCB page on global.alipay.com;
    /// docs.antom.com now spells it "Siam Commercial Bank", the catalogue's display name).
    public static let publishedNames: [String: String] = ["siam commerical bank": "SCB"]

    /// The bank `bankName` means as `paymentMethodMetaData` gives it: its code (`SCB`), or its
    /// display name as Antom's documents print it (case and spacing aside), English or local.
    public static func bank(metaDataName name: String) -> AntomBank? {
        if let bank = bank(named: name) { return bank }
        let folded = name.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        if let code = publishedNames[folded] { return bank(named: code) }
        return banks.first { $0.displayName.lowercased() == folded || $0.localName.lowercased() == folded }
    }

    /// The country whose banks take `currency`; nil when any may (USD).
    public static func country(forCurrency currency: String) -> String? {
        switch currency.uppercased() {
        case "THB": "TH"
        case "IDR": "ID"
        default: nil
        }
    }

    /// The banks `mode` shows for a payment in `currency`, in catalogue order. Bank-type mode
    /// keeps to the currency's country; a web client is never offered mobile banking apps there.
    public static func banks(for mode: AntomDisplayMode, currency: String, client: AntomClientKind) -> [AntomBank] {
        switch mode {
        case .singleBank(let name):
            return bank(named: name).map { [$0] } ?? []
        case .bankCountry(let country):
            return banks.filter { $0.country == country }
        case .bankType(let category):
            if category == .mobileBankingApp, client == .web { return [] }
            let country = country(forCurrency: currency)
            return banks.filter { $0.categories.contains(category) && (country == nil || $0.country == country) }
        }
    }
}

/// Where the component runs: the seed offers mobile banking apps only to apps.
public enum AntomClientKind: String, Codable, Hashable, Sendable, CaseIterable {
    case app, web
}

/// How the merchant chooses the banks shown: one named bank, a kind of bank method, or a country.
public enum AntomDisplayMode: Codable, Hashable, Sendable {
    case singleBank(String)
    case bankType(AntomBankCategory)
    case bankCountry(String)

    /// `single-bank:SCB`, `bank-type:ONLINE_BANKING`, `bank-country:TH`.
    public var spelling: String {
        switch self {
        case .singleBank(let name): "single-bank:\(name)"
        case .bankType(let category): "bank-type:\(category.rawValue)"
        case .bankCountry(let country): "bank-country:\(country)"
        }
    }

    /// The allowed spellings, for messages.
    public static let allowed = "single-bank:NAME (\(AntomBankCatalogue.banks.map(\.bankName).joined(separator: "|"))), "
        + "bank-type:\(AntomBankCategory.allCases.map(\.rawValue).joined(separator: "|")), bank-country:\(AntomBankCatalogue.countries.joined(separator: "|"))"

    /// Reads a spelling; the error names what is allowed.
    public init(spelling: String) throws(AntomModeError) {
        let parts = spelling.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { throw AntomModeError(spelling: spelling) }
        switch parts[0] {
        case "single-bank":
            guard let bank = AntomBankCatalogue.bank(named: parts[1]) else { throw AntomModeError(spelling: spelling) }
            self = .singleBank(bank.bankName)
        case "bank-type":
            guard let category = AntomBankCategory(rawValue: parts[1].uppercased()) else { throw AntomModeError(spelling: spelling) }
            self = .bankType(category)
        case "bank-country":
            guard AntomBankCatalogue.countries.contains(parts[1].uppercased()) else { throw AntomModeError(spelling: spelling) }
            self = .bankCountry(parts[1].uppercased())
        default:
            throw AntomModeError(spelling: spelling)
        }
    }

    /// `paymentMethodMetaData`: a JSON string with one of `bankName`, `paymentMethodCategory`, `paymentMethodRegion`.
    public var metaData: String {
        switch self {
        case .singleBank(let name): #"{"bankName":"\#(name)"}"#
        case .bankType(let category): #"{"paymentMethodCategory":"\#(category.rawValue)"}"#
        case .bankCountry(let country): #"{"paymentMethodRegion":"\#(country)"}"#
        }
    }

    /// Reads `paymentMethodMetaData` as the sandbox receives it; nil when it names no mode (or an unknown bank, kind or country).
    public init?(metaData: String) {
        struct Fields: Decodable {
            let bankName: String?
            let paymentMethodCategory: String?
            /// The seed's bank-type example spells the key `paymentMethodCaregory`: read as the same key.
            let paymentMethodCaregory: String?
            let paymentMethodRegion: String?
        }
        guard let data = metaData.data(using: .utf8),
              let fields = try? JSONDecoder().decode(Fields.self, from: data) else { return nil }
        if fields.paymentMethodCategory != nil, fields.paymentMethodCaregory != nil { return nil }
        switch (fields.bankName, fields.paymentMethodCategory ?? fields.paymentMethodCaregory, fields.paymentMethodRegion) {
        case (let name?, nil, nil):
            guard let bank = AntomBankCatalogue.bank(metaDataName: name) else { return nil }
            self = .singleBank(bank.bankName)
        case (nil, let category?, nil):
            guard let known = AntomBankCategory(rawValue: category) else { return nil }
            self = .bankType(known)
        case (nil, nil, let country?):
            guard AntomBankCatalogue.countries.contains(country) else { return nil }
            self = .bankCountry(country)
        default:
            return nil
        }
    }
}

public struct AntomModeError: Error, Hashable, Sendable, CustomStringConvertible {
    public let spelling: String
    public init(spelling: String) { self.spelling = spelling }
    public var description: String { "\"\(spelling)\" is not a display mode; use \(AntomDisplayMode.allowed)" }
}
