import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import _CryptoExtras

/// Antom's options: where its API is, who the merchant is and its keys, and the bank
/// component's display mode and configuration. Checked where they enter.
public enum AntomOptions {
    static let url = ProviderOption(flag: "antom-url", valueName: "url", help: "Antom's gateway, e.g. \(AntomConfiguration.gateway) (default: the sandbox).")
    static let clientID = ProviderOption(
        flag: "antom-client-id", environment: "ANTOM_CLIENT_ID", valueName: "id", help: "Antom client id (SANDBOX_… ids use /ams/sandbox/api).")
    static let privateKeyFile = ProviderOption(
        flag: "antom-private-key-file", environment: "ANTOM_PRIVATE_KEY_FILE", valueName: "path", help: "Antom: your private key (PEM or bare base64) to sign requests.")
    static let publicKeyFile = ProviderOption(
        flag: "antom-public-key-file", environment: "ANTOM_PUBLIC_KEY_FILE", valueName: "path", help: "Antom: Antom's public key (PEM or bare base64) to verify answers.")
    static let privateKey = ProviderOption(
        flag: "antom-private-key", environment: "ANTOM_PRIVATE_KEY", valueName: "key", help: "Antom: your private key itself (prefer the file).", secret: true)
    static let mode = ProviderOption(
        flag: "mode", valueName: "single-bank:NAME|bank-type:TYPE|bank-country:TH|ID", help: "Antom: which banks the component shows (default bank-country:TH).")
    static let locale = ProviderOption(
        flag: AntomPaymentSettings.localeFlag, valueName: "en_US|in_ID|th_TH", help: "Antom: the component's language (others fall back to en_US).")
    static let clientKind = ProviderOption(
        flag: "client-kind", valueName: "app|web", help: "Antom: where the component runs; web is never offered mobile banking apps (default app).")
    static let noLoading = ProviderOption.switchOption(flag: "no-loading", help: "Antom: the component's showLoading off.")
    static let productCode = ProviderOption(
        flag: "product-code", valueName: "CASHIER_PAYMENT|AGREEMENT_PAYMENT", help: "Antom: the session's productCode (default CASHIER_PAYMENT).")
    static let settlementCurrency = ProviderOption(
        flag: "settlement-currency", valueName: "USD|THB|IDR", help: "Antom: the settlement currency (default the payment's).")
    static let sessionExpiry = ProviderOption(
        flag: "session-expiry", valueName: "seconds", help: "Antom: how long a payment session lives, 60 to 3600 (default Antom's).")
    static let all = [url, clientID, privateKeyFile, publicKeyFile, privateKey, mode, locale, clientKind, noLoading, productCode, settlementCurrency, sessionExpiry]

    static let productCodes = ["CASHIER_PAYMENT", "AGREEMENT_PAYMENT"]
    static let currencies = ["USD", "THB", "IDR"]

    static func problem(_ values: ProviderOptionValues) -> String? {
        if let value = values[url.flag], !ProviderOptionValues.isWebURL(value) {
            return "--antom-url must be an http(s) URL, e.g. \(AntomConfiguration.gateway)"
        }
        if values[url.flag] != nil {
            if values[clientID.flag] == nil { return "--antom-url needs your client id: --antom-client-id (or ANTOM_CLIENT_ID)" }
            if values[privateKeyFile.flag] == nil, values[privateKey.flag] == nil {
                return "--antom-url needs your private key: --antom-private-key-file (or ANTOM_PRIVATE_KEY_FILE)"
            }
            if values[publicKeyFile.flag] == nil { return "--antom-url needs Antom's public key: --antom-public-key-file (or ANTOM_PUBLIC_KEY_FILE)" }
        }
        if let id = values[clientID.flag], !(1...64).contains(id.count) || !id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) {
            return "--antom-client-id must be 1 to 64 letters, digits, _ or -"
        }
        do { _ = try keys(values) } catch { return error.description }
        if let value = values[mode.flag] {
            let parsed: AntomDisplayMode
            do { parsed = try AntomDisplayMode(spelling: value) } catch { return "--mode: \(error.description)" }
            if parsed == .bankType(.mobileBankingApp), values[clientKind.flag] == AntomClientKind.web.rawValue {
                return "--mode bank-type:MOBILE_BANKING_APP is never offered to web clients (--client-kind web); use --client-kind app or another mode"
            }
        }
        if let value = values[locale.flag], !(1...32).contains(value.count) || !value.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "-") }) {
            return "--locale must be one of \(AntomLocale.spellings) (other locale names fall back to English), not \"\(value.prefix(40))\""
        }
        if let value = values[clientKind.flag], AntomClientKind(rawValue: value) == nil {
            return "--client-kind must be app or web, not \"\(value.prefix(40))\""
        }
        if let value = values[productCode.flag], !productCodes.contains(value) {
            return "--product-code must be one of \(productCodes.joined(separator: ", ")), not \"\(value.prefix(40))\""
        }
        if let value = values[settlementCurrency.flag], !currencies.contains(value) {
            return "--settlement-currency must be one of \(currencies.joined(separator: ", ")), not \"\(value.prefix(40))\""
        }
        if let value = values[sessionExpiry.flag], Int(value).map({ (60...3600).contains($0) }) != true {
            return "--session-expiry must be a whole number of seconds from 60 to 3600, not \"\(value.prefix(40))\""
        }
        return nil
    }

    static func settings(_ values: ProviderOptionValues) -> AntomPaymentSettings {
        AntomPaymentSettings(
            mode: values[mode.flag].flatMap { try? AntomDisplayMode(spelling: $0) } ?? .bankCountry("TH"),
            localeSpelling: values[locale.flag], clientKind: values[clientKind.flag].flatMap(AntomClientKind.init(rawValue:)) ?? .app,
            showLoading: values[noLoading.flag] == nil, productCode: values[productCode.flag] ?? "CASHIER_PAYMENT",
            settlementCurrency: values[settlementCurrency.flag], sessionLifetimeSeconds: values[sessionExpiry.flag].flatMap { Int($0) },
            hostedCashierOnly: values[url.flag] != nil)
    }

    /// The merchant's keys as given, or nil for the sandbox's test client; the error names the option.
    static func keys(_ values: ProviderOptionValues) throws(OptionProblem) -> (_RSA.Signing.PrivateKey, _RSA.Signing.PublicKey)? {
        let privateText: String?
        if let inline = values[privateKey.flag] { privateText = inline } else if let path = values[privateKeyFile.flag] {
            privateText = try read(path, option: privateKeyFile)
        } else { privateText = nil }
        let publicText = try values[publicKeyFile.flag].map { path throws(OptionProblem) in try read(path, option: publicKeyFile) }
        guard privateText != nil || publicText != nil else { return nil }
        let sandbox = AntomConfiguration.sandbox(baseURL: "")
        let signing: _RSA.Signing.PrivateKey
        do { signing = try privateText.map(AntomSignature.privateKey) ?? sandbox.privateKey } catch {
            throw OptionProblem(description: "--\(privateKeyFile.flag): \(error)")
        }
        let verifying: _RSA.Signing.PublicKey
        do { verifying = try publicText.map(AntomSignature.publicKey) ?? sandbox.providerPublicKey } catch {
            throw OptionProblem(description: "--\(publicKeyFile.flag): \(error)")
        }
        return (signing, verifying)
    }

    private static func read(_ path: String, option: ProviderOption) throws(OptionProblem) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OptionProblem(description: "--\(option.flag): cannot read \(path)")
        }
        guard data.count <= 16_384 else { throw OptionProblem(description: "--\(option.flag): \(path) is too large for a key") }
        return String(decoding: data, as: UTF8.self)
    }

    struct OptionProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// The client's configuration: the sandbox's test client unless credentials were given.
    static func configuration(_ values: ProviderOptionValues, sandboxURL: String?) -> AntomConfiguration {
        let base = values[url.flag] ?? sandboxURL ?? AntomConfiguration.gateway
        var configuration = AntomConfiguration.sandbox(baseURL: base)
        if let id = values[clientID.flag] { configuration.clientID = id }
        // Options were checked where they entered (`problem`): keys that do not read are refused there.
        if let keys = (try? keys(values)).flatMap({ $0 }) {
            configuration.privateKey = keys.0
            configuration.providerPublicKey = keys.1
        }
        return configuration
    }
}
