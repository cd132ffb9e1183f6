import CheckoutModel
import Foundation
import PaymentFlow

/// The wallet's options: the payment request's networks, required shipping and billing contact
/// fields, shipping type, country and capabilities, the flat shipping methods or the rates
/// backend, the processor, and what the sheet opens on. Checked where they enter.
public enum WalletOptions {
    static let networks = ProviderOption(
        flag: "networks", valueName: "amex,mastercard,visa", help: "Wallet: the networks the merchant takes (default amex,mastercard,visa; also discover, jcb, unionpay).")
    static let require = ProviderOption(
        flag: "require", valueName: "postal,email,phone,name",
        help: "Wallet: the shipping contact fields the payment request requires (default postal,email,phone); without postal the sheet asks no address and looks up no rates.")
    static let billingFields = ProviderOption(
        flag: "required-billing-fields", valueName: "postal,email,phone,name",
        help: "Wallet: the billing contact fields the payment request requires, shown on a BILLING row (default none).")
    static let shippingType = ProviderOption(
        flag: "shipping-type", valueName: "shipping|delivery|storePickup|servicePickup",
        help: "Wallet: PKShippingType, the words of the address and method rows (SHIP TO, DELIVER TO, PICK UP AT, PICK UP FROM; default shipping).")
    static let shippingMethods = ProviderOption(
        flag: "shipping-methods", valueName: "catalog|'id:label:detail:amount;...'",
        help: "Wallet: the merchant's own flat shipping methods instead of the rates lookup (catalog: the catalog's; an amount may be pending).")
    static let countryCode = ProviderOption(
        flag: "country-code", valueName: "code", help: "Wallet: the payment request's countryCode, two letters (default US); carried in the token.")
    static let capabilities = ProviderOption(
        flag: "merchant-capabilities", valueName: "supports3DS,supportsEMV,supportsCredit,supportsDebit",
        help: "Wallet: the merchant's capabilities (default supports3DS), carried in the token; the processor refuses a card or token they do not enable.")
    static let ratesURL = ProviderOption(
        flag: "rates-url", valueName: "url", help: "Wallet: a rates backend of the seed's shape; the query is appended to it (default: the sandbox's /rates).")
    static let processor = ProviderOption(
        flag: "wallet-processor", valueName: "adyen|square", help: "Wallet: who charges the wallet's token (default adyen).")
    static let address = ProviderOption(
        flag: "address", valueName: "NAME|'street,city,state,zip,country'", help: "Wallet: the address the sheet opens on (default the first saved one).")
    static let shippingMethod = ProviderOption(
        flag: "shipping-method", valueName: "ID|cheapest|fastest", help: "Wallet: the shipping method selected when rates arrive or flat methods are set (default cheapest).")
    static let addresses = ProviderOption(
        flag: "wallet-addresses", valueName: "Label=street,city,state,zip,country;…", help: "Wallet: saved addresses instead of the catalog customer's.")
    static let cards = ProviderOption(
        flag: "wallet-cards", valueName: "network:last4,…", help: "Wallet: the wallet's cards instead of the catalog customer's, e.g. visa:4242,discover:1117.")
    static let merchantID = ProviderOption(
        flag: "merchant-id", valueName: "id", help: "Wallet: the merchant identifier (default merchant.com.terminalcheckout.sandbox).")
    /// `--card LAST4` shares its flag with Square's `--card NAME`: Square takes names, the wallet four digits.
    static let card = ProviderOption(
        flag: "card", valueName: "LAST4", help: "Wallet: the wallet card to pay with, by its last four digits (default the first accepted one).")
    static let all = [
        networks, require, ratesURL, processor, address, shippingMethod, card, addresses, cards, merchantID, billingFields, shippingType, shippingMethods,
        countryCode, capabilities,
    ]

    /// The seed's first example's two methods, as `--shipping-methods` takes them.
    static let seedFlatMethods = "freeshipping:Free Shipping:Arrives in 6-8 weeks:0;expressshipping:Express Shipping:Arrives in 2-3 days:10.00"

    static func problem(_ values: ProviderOptionValues) -> String? {
        do { _ = try settings(values) } catch { return error.description }
        return nil
    }

    /// The settings the options ask for; the error names the option and what it takes.
    static func settings(_ values: ProviderOptionValues) throws(WalletOptionProblem) -> WalletSettings {
        var settings = WalletSettings()
        func read<T>(_ option: ProviderOption, _ parse: (String) throws -> T) throws(WalletOptionProblem) -> T? {
            guard let value = values[option.flag] else { return nil }
            do { return try parse(value) } catch {
                // The parsers already name the flag; others get it added.
                let text = String(describing: error)
                throw WalletOptionProblem(description: text.hasPrefix("--") ? text : "--\(option.flag): \(text)")
            }
        }
        if let parsed = try read(networks, CardNetwork.parseList) { settings.supportedNetworks = parsed }
        if let parsed = try read(require, ContactField.parseList) { settings.requiredContactFields = parsed }
        if let value = values[ratesURL.flag], !ProviderOptionValues.isWebURL(value) {
            throw WalletOptionProblem(description: "--rates-url must be an http(s) URL, e.g. https://shop.example/rates")
        }
        if let value = values[processor.flag] {
            guard let chosen = WalletSettings.Processor(rawValue: value.lowercased()) else {
                throw WalletOptionProblem(description: "--wallet-processor must be adyen or square, not \"\(value.prefix(40))\"")
            }
            settings.processor = chosen
        }
        if let value = values[address.flag] {
            guard (1...300).contains(value.count) else { throw WalletOptionProblem(description: "--address must be 1 to 300 characters") }
            if value.contains(","), let entered = try read(address, ShippingAddress.parse) {
                settings.address = .entered(entered)
            } else {
                settings.address = .saved(value)
            }
        }
        if let value = values[shippingMethod.flag] {
            guard (1...100).contains(value.count), value.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw WalletOptionProblem(description: "--shipping-method must be a rate id, cheapest or fastest")
            }
            settings.method = WalletSettings.MethodChoice(spelling: value)
        }
        if let parsed = try read(addresses, ShippingAddress.parseList) { settings.addresses = parsed }
        if let parsed = try read(cards, SavedCard.parseList) { settings.cards = parsed }
        if let value = values[merchantID.flag] {
            guard (1...128).contains(value.count), value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_".contains($0)) }) else {
                throw WalletOptionProblem(description: "--merchant-id must be 1 to 128 letters, digits, dots, - or _, e.g. merchant.com.example")
            }
            settings.merchantIdentifier = value
        }
        if let parsed = try read(billingFields, { text throws(WalletOptionProblem) in
            do throws(WalletSpecError) { return try ContactField.parseList(text) } catch {
                throw WalletOptionProblem(description: "--required-billing-fields: \(error.problem); expected \(error.form)")
            }
        }) { settings.requiredBillingFields = parsed }
        if let value = values[shippingType.flag] {
            guard let type = WalletSettings.ShippingType(spelling: value) else {
                throw WalletOptionProblem(
                    description: "--shipping-type must be one of \(WalletSettings.ShippingType.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(value.prefix(40))\"")
            }
            settings.shippingType = type
        }
        if let parsed = try read(shippingMethods, WalletSettings.FlatMethods.parse) { settings.flatMethods = parsed }
        if let value = values[countryCode.flag] {
            guard value.count == 2, value.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw WalletOptionProblem(description: "--country-code must be an ISO 3166 two-letter country code such as US or GB, not \"\(value.prefix(40))\"")
            }
            settings.countryCode = value.uppercased()
        }
        if let parsed = try read(capabilities, WalletSettings.Capability.parseList) { settings.merchantCapabilities = parsed }
        if let value = values[card.flag], value.count == 4, value.allSatisfy(\.isNumber) { settings.cardLast4 = value }
        return settings
    }

    /// The rates endpoint: `--rates-url`, else the sandbox's.
    static func ratesEndpoint(_ values: ProviderOptionValues, sandboxURL: String?) -> String? {
        values[ratesURL.flag] ?? sandboxURL.map { $0 + "/rates" }
    }
}

/// An option the wallet cannot use, worded for the user.
struct WalletOptionProblem: Error, CustomStringConvertible {
    var description: String
}
