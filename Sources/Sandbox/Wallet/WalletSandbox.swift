import CheckoutModel
import Foundation
import Hummingbird

/// The wallet sheet's rates service, as the seed's backend shapes it: `GET /rates?street=&city=
/// &state=&zip=&country=` (and this sandbox's `weight_grams`, the parcel's weight, 500 g when
/// left out, and `currency`, USD when left out, THB or IDR at fixed rates) → a JSON array of rates, cheapest first; an empty array when the address cannot be
/// shipped to. Magic ZIP codes: 00000 has no service (empty array), 88888 answers after 3 s
/// (sped up by `SandboxSettings.timeScale`), 99999 fails (500). And PassKit's side of the sheet:
/// `POST /wallet/tokens` issues the payment token Adyen and Square then charge (`WalletTokenRoutes`).
public struct WalletSandbox: SandboxProvider {
    public let id: String
    /// Issued tokens by transaction id, so a retried request gets its token again.
    let tokens: WalletTokenStore

    public init(id: String, settings: SandboxSettings) {
        self.id = id
        tokens = WalletTokenStore(storage: settings.storage)
    }

    public var summary: String {
        "shipping rates at /rates?street=&city=&state=&zip=&country= (ZIP 00000 none, 88888 slow, 99999 failing); "
            + "payment tokens at POST /wallet/tokens (last4 0002 declined, 5 min to pay)"
    }

    public var pathPrefixes: [String] { ["/rates", "/wallet/"] }

    /// The processors read the tokens it issues with this.
    public var cardTokens: (any CardTokenReader)? { WalletTokenReader() }

    /// ZIP codes with a documented answer.
    enum MagicZIP {
        static let noService = "00000"
        static let slow = "88888"
        static let failing = "99999"
        static let slowSeconds = 3.0
    }

    public func register(on router: some RouterMethods<SandboxRequestContext>, core: SandboxCore) {
        let settings = core.settings
        router.get("rates") { request, _ -> Response in
            await Self.rates(request, settings: settings)
        }
        WalletTokenRoutes(settings: settings, tokens: tokens).register(on: router)
    }

    static func rates(_ request: Request, settings: SandboxSettings) async -> Response {
        let query = request.uri.queryParameters
        func field(_ name: Substring) -> String { query[name].map { String($0.prefix(200)) } ?? "" }
        let address = WalletRateTable.Address(street: field("street"), city: field("city"), state: field("state"), zip: field("zip"), country: field("country"))
        var grams = 500
        if let given = query["weight_grams"] {
            guard let value = Int(String(given)), (1...70_000).contains(value) else {
                return SandboxResponse.json(["error": "weight_grams must be a whole number of grams from 1 to 70000"], status: .badRequest)
            }
            grams = value
        }
        var currency = "USD"
        if let given = query["currency"] {
            guard WalletRateTable.perDollar[String(given)] != nil else {
                return SandboxResponse.json(
                    ["error": "currency must be one of \(WalletRateTable.perDollar.keys.sorted().joined(separator: ", "))"], status: .badRequest)
            }
            currency = String(given)
        }
        switch address.zip.trimmedOfWhitespace {
        case MagicZIP.noService:
            return SandboxResponse.json([WalletRateTable.Rate]())
        case MagicZIP.failing:
            return SandboxResponse.json(["error": "the rates service failed (sandbox magic ZIP 99999)"], status: .internalServerError)
        case MagicZIP.slow:
            try? await Task.sleep(for: .seconds(MagicZIP.slowSeconds / max(settings.timeScale, 0.001)))
        default:
            break
        }
        return SandboxResponse.json(WalletRateTable.rates(to: address, grams: grams, today: settings.now(), currency: currency))
    }

    public func faultResponse(_ fault: InjectedFault) -> Response {
        SandboxResponse.json(["error": "\(fault.error.code): \(fault.error.message)"], status: fault.error.status)
    }

    public func refusalResponse(_ refusal: SandboxError) -> Response {
        SandboxResponse.json(["error": refusal.message], status: refusal.status)
    }
}
