import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire

/// Square's options: where its API is, the credentials, and the SDK's payment and prompt
/// parameters (what `checkout run` decides up front that the screen asks for).
public enum SquareOptions {
    /// What the sandbox accepts: access tokens starting `EAAA`, as Square's sandbox tokens do.
    public static let sandboxAccessToken = "EAAAterminalcheckout-sandbox-token"
    public static let sandboxLocationID = "LSANDBOX0001"

    static let url = ProviderOption(
        flag: "square-url", valueName: "url", help: "Square API host, e.g. \(SquareConfiguration.sandboxBaseURL) (default: the sandbox).")
    static let accessToken = ProviderOption(
        flag: "square-access-token", environment: "SQUARE_ACCESS_TOKEN", valueName: "token", help: "Square access token (Bearer).", secret: true)
    static let location = ProviderOption(
        flag: "square-location-id", environment: "SQUARE_LOCATION_ID", valueName: "id", help: "Square location the payment is taken at.")
    static let card = ProviderOption(
        flag: "card", valueName: SquareTestCard.known.map(\.name).joined(separator: "|") + "|NAME,NAME|LAST4",
        help: "Square: the test card presented at the reader (default: asked; checkout run: the customer behaviour's); several, comma-separated, are presented in turn after a decline (same reference) or for what a gift card left (gift,ok); the wallet: LAST4 of its card.")
    static let entry = ProviderOption(
        flag: "entry", valueName: SquareEntryMethod.allCases.map(\.rawValue).joined(separator: "|"), help: "Square: how the card is presented (default tap).")
    static let tip = ProviderOption(flag: "tip", valueName: "minor-units", help: "Square: the tip, in minor units (default: asked on the tip screen; checkout run: none).")
    static let appFee = ProviderOption(flag: "app-fee", valueName: "minor-units", help: "Square: the app fee, in minor units.")
    static let autocomplete = ProviderOption.switchOption(flag: "autocomplete", help: "Square: complete at once (the default unless --delay, --delay-action or --then).")
    static let delay = ProviderOption(
        flag: "delay", valueName: "seconds|ISO-8601-duration",
        help: "Square: authorize only (autocomplete off) for this long: seconds as the SDK's delayDuration (at least 60; 0: Square's default, 36 h card-present, 7 days keyed) or ISO 8601 as the API's, e.g. 600 or PT10M.")
    static let delayAction = ProviderOption(flag: "delay-action", valueName: "CANCEL|COMPLETE", help: "Square: what Square does when the delay passes (default CANCEL).")
    static let then = ProviderOption(
        flag: "then", valueName: SquarePaymentSettings.thenSyntax,
        help: "Square: what happens to the authorized payment (expire waits for the delay action; tip:300,complete adds a tip by UpdatePayment first).")
    static let acceptPartialAuthorization = ProviderOption.switchOption(
        flag: "accept-partial-authorization",
        help: "Square: a gift card may approve less than asked; the rest is taken on another card (authorize only: not with --autocomplete).")
    static let offlineCapable = ProviderOption.switchOption(
        flag: "offline-capable", help: "Square: take the payment offline (queued on this machine) when Square cannot be reached (--processing-mode auto-detect).")
    static let noKeyedEntry = ProviderOption.switchOption(flag: "no-keyed-entry", help: "Square: remove keyed entry from the reader prompt.")
    static let note = ProviderOption(flag: "note", valueName: "text", help: "Square: the payment's note (at most 500 characters).")
    static let orderID = ProviderOption(flag: "order-id", valueName: "id", help: "Square: the order the payment is for.")
    static let all =
        [url, accessToken, location, card, entry, tip, appFee, autocomplete, delay, delayAction, then, offlineCapable, noKeyedEntry, note, orderID, acceptPartialAuthorization]
        + sdkOptions

    static let profileExample = ProfileExample(order: 1, text: """
          # Square's sandbox with your own application's token.
          square-sandbox:
            description: Square sandbox, my test application
            providers: [square]
            options:
              square-url: https://connect.squareupsandbox.com
              square-location-id: YOUR_LOCATION_ID
            credentials:
              square-access-token: { env: SQUARE_ACCESS_TOKEN }
        """)

    static func problem(_ values: ProviderOptionValues) -> String? {
        if let value = values[url.flag], !ProviderOptionValues.isWebURL(value) {
            return "--square-url must be an http(s) URL, e.g. \(SquareConfiguration.sandboxBaseURL)"
        }
        if values[url.flag] != nil, values[accessToken.flag] == nil {
            return "--square-url needs your credentials: --square-access-token (or SQUARE_ACCESS_TOKEN)"
        }
        // Four digits are the wallet's --card LAST4, which shares the flag.
        if let value = values[card.flag], SquarePaymentSettings.parseCards(value) == nil, !(value.count == 4 && value.allSatisfy(\.isNumber)) {
            return "--card must be one of \(SquareTestCard.known.map(\.name).joined(separator: ", ")) (Square; up to 8, comma-separated, are presented in turn) or a wallet card's last four digits, not \"\(value.prefix(40))\""
        }
        if let value = values[entry.flag], SquareEntryMethod(rawValue: value) == nil {
            return "--entry must be one of tap, insert, swipe, keyed, not \"\(value)\""
        }
        if values[entry.flag] == SquareEntryMethod.keyed.rawValue, values[noKeyedEntry.flag] != nil {
            return "--entry keyed and --no-keyed-entry do not go together: keyed entry was removed from the prompt"
        }
        for option in [tip, appFee] {
            if let value = values[option.flag], Int(value).map({ (0...99_999_999).contains($0) }) != true {
                return "--\(option.flag) must be a whole number of minor units from 0 to 99999999, not \"\(value)\""
            }
        }
        if let value = values[delay.flag], let problem = delayProblem(value) { return problem }
        if let problem = sdkProblem(values) { return problem }
        if let value = values[delayAction.flag], !["CANCEL", "COMPLETE"].contains(value.uppercased()) {
            return "--delay-action must be CANCEL or COMPLETE, not \"\(value)\""
        }
        if let value = values[then.flag], SquarePaymentSettings.parseThen(value) == nil {
            return "--then must be complete, cancel or expire, or tip:MINOR-UNITS,complete|cancel to add a tip (0 to 99999999) first, not \"\(value.prefix(40))\""
        }
        if values[autocomplete.flag] != nil,
            values[delay.flag] != nil || values[delayAction.flag] != nil || values[then.flag] != nil || values[acceptPartialAuthorization.flag] != nil
        {
            return "--autocomplete does not go with --delay, --delay-action, --then or --accept-partial-authorization: those are for a payment that is only authorized"
        }
        if let value = values[note.flag], value.count > 500 { return "--note must be at most 500 characters (Square's limit)" }
        if let value = values[orderID.flag], value.isEmpty || value.count > 192 { return "--order-id must be 1 to 192 characters" }
        if let value = values[location.flag], value.isEmpty || value.count > 32 { return "--square-location-id must be 1 to 32 characters" }
        return nil
    }

    public static func configuration(_ values: ProviderOptionValues, sandboxURL: String?) -> SquareConfiguration {
        let realSquare = values[url.flag] != nil
        return SquareConfiguration(
            baseURL: values[url.flag] ?? sandboxURL ?? SquareConfiguration.sandboxBaseURL,
            accessToken: values[accessToken.flag] ?? sandboxAccessToken,
            locationID: values[location.flag] ?? (realSquare ? nil : sandboxLocationID))
    }

    static func settings(_ values: ProviderOptionValues) -> SquarePaymentSettings {
        let delayed = values[delay.flag] != nil || values[delayAction.flag] != nil || values[then.flag] != nil
            || values[acceptPartialAuthorization.flag] != nil
        let then = values[then.flag].flatMap(SquarePaymentSettings.parseThen)
        let cards = values[card.flag].flatMap(SquarePaymentSettings.parseCards) ?? []
        var settings = SquarePaymentSettings(
            tip: values[tip.flag].flatMap(Int.init), appFee: values[appFee.flag].flatMap(Int.init), autocomplete: !delayed,
            delayAction: values[delayAction.flag]?.uppercased(), then: then?.then,
            card: cards.first, entry: values[entry.flag].flatMap(SquareEntryMethod.init(rawValue:)),
            keyedEntryAllowed: values[noKeyedEntry.flag] == nil, note: values[note.flag], orderID: values[orderID.flag])
        settings.documentedNoncesOnly = values[url.flag] != nil
        settings.tipAfterAuthorization = then?.tip
        settings.acceptPartialAuthorization = values[acceptPartialAuthorization.flag] != nil
        settings.nextCards = Array(cards.dropFirst())
        // The prompt mode, reader steps, processing mode and delayDuration: set once, there.
        applySDK(values, to: &settings)
        return settings
    }
}

/// ISO 8601 durations as Square takes them (`P1DT2H`, `PT10M`, `PT90S`), in seconds.
enum ISO8601Duration {
    static func seconds(_ text: String) -> Int? {
        var rest = Substring(text.uppercased())
        guard rest.hasPrefix("P"), rest.count > 1, rest.count <= 32 else { return nil }
        rest = rest.dropFirst()
        var total = 0
        var inTime = false
        var number = ""
        var sawUnit = false
        for character in rest {
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int(number), number.count <= 9 else { return nil }
            let unit: Int? = switch (inTime, character) {
            case (false, "W"): 604_800
            case (false, "D"): 86_400
            case (true, "H"): 3_600
            case (true, "M"): 60
            case (true, "S"): 1
            default: nil
            }
            guard let unit else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: unit)
            guard !overflow else { return nil }
            let (sum, overflowSum) = total.addingReportingOverflow(product)
            guard !overflowSum else { return nil }
            total = sum
            number = ""
            sawUnit = true
        }
        return sawUnit && number.isEmpty ? total : nil
    }
}
