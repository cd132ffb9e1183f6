import CheckoutApp
import Foundation
import ProviderClients
@testable import Sandbox
import Testing

/// The wallet sheet's rates service (issue 14, a first piece): the rate table by zone and weight,
/// US ZIP and state checks, and the magic ZIP codes, over a real socket.
@Suite struct WalletRatesTests {
    typealias Address = WalletRateTable.Address
    /// A Monday: arrival dates skip the weekend.
    static let monday = Date(timeIntervalSince1970: 1_795_392_000)  // 2026-11-23T00:00:00Z

    static let portland = Address(street: "1 Main St", city: "Portland", state: "OR", zip: "97201", country: "US")
    static let newYork = Address(street: "350 5th Ave", city: "New York", state: "NY", zip: "10118", country: "US")

    @Test func ratesComeCheapestFirstFromThreeCarriersWithArrivalsInBusinessDays() {
        let rates = WalletRateTable.rates(to: Self.newYork, grams: 1200, today: Self.monday)
        #expect(rates.count == 6)
        #expect(Set(rates.map(\.carrier)) == ["USPS", "UPS", "FedEx"])
        #expect(rates.map(\.minorUnits) == rates.map(\.minorUnits).sorted())
        let ground = rates.first { $0.id == "usps_ground_advantage" }
        // Zone 3 (national), 1.2 kg: 5.85 + 2 × 0.95 + 2 × 1.20 = 10.15, five business days from Monday.
        #expect(ground?.amount == "10.15")
        #expect(ground?.formattedArrivalDate == "Mon, Nov 30")
        #expect(rates.first { $0.id == "fedex_standard_overnight" }?.formattedArrivalDate == "Tue, Nov 24")
    }

    @Test func aShopInBahtOrRupiahGetsRatesInItsCurrency() {
        let bangkok = Address(street: "88 Sukhumvit Rd", city: "Bangkok", state: "Bangkok", zip: "10110", country: "TH")
        let dollars = WalletRateTable.rates(to: bangkok, grams: 1030, today: Self.monday)
        let baht = WalletRateTable.rates(to: bangkok, grams: 1030, today: Self.monday, currency: "THB")
        let rupiah = WalletRateTable.rates(to: bangkok, grams: 1030, today: Self.monday, currency: "IDR")
        #expect(baht.map(\.currency) == Array(repeating: "THB", count: dollars.count))
        #expect(zip(dollars, baht).allSatisfy { $0.minorUnits * 36 == $1.minorUnits })
        #expect(zip(dollars, rupiah).allSatisfy { $0.minorUnits * 16_000 == $1.minorUnits && $1.currency == "IDR" })
        #expect(baht.map(\.id) == dollars.map(\.id))
    }

    @Test func fartherAndHeavierCostMore() {
        let near = WalletRateTable.rates(to: Self.portland, grams: 400, today: Self.monday)
        let far = WalletRateTable.rates(to: Self.newYork, grams: 400, today: Self.monday)
        let heavy = WalletRateTable.rates(to: Self.newYork, grams: 5000, today: Self.monday)
        for id in ["usps_priority", "ups_ground", "fedex_ground"] {
            let prices = [near, far, heavy].map { rates in rates.first { $0.id == id }?.minorUnits ?? 0 }
            #expect(prices[0] < prices[1] && prices[1] < prices[2], "\(id): \(prices)")
        }
    }

    @Test func abroadOnlyInternationalServices() {
        let london = Address(street: "10 Downing St", city: "London", state: "", zip: "SW1A 2AA", country: "GB")
        let rates = WalletRateTable.rates(to: london, grams: 800, today: Self.monday)
        #expect(rates.map(\.id).sorted() == ["fedex_international_priority", "ups_worldwide_expedited", "usps_priority_international"])
    }

    @Test(arguments: [
        (Address(street: "x", city: "Portland", state: "OR", zip: "9720", country: "US"), "not a US ZIP code"),
        (Address(street: "x", city: "Portland", state: "OR", zip: "10118", country: "US"), "is not in OR"),
        (Address(street: "x", city: "Portland", state: "ZZ", zip: "97201", country: "US"), "is not in ZZ"),
        (Address(street: "x", city: "", state: "OR", zip: "97201", country: "US"), "city is missing"),
        (Address(street: "x", city: "Paris", state: "", zip: "75001", country: "FR"), "does not ship to FR"),
    ])
    func anAddressThatCannotBeShippedToGetsNoRatesAndAReason(address: Address, reason: String) {
        #expect(WalletRateTable.problem(with: address)?.contains(reason) == true, "\(String(describing: WalletRateTable.problem(with: address)))")
        #expect(WalletRateTable.rates(to: address, grams: 500, today: Self.monday).isEmpty)
    }

    @Test func zipPlusFourIsAZIPCode() {
        var address = Self.newYork
        address.zip = "10118-0110"
        #expect(WalletRateTable.problem(with: address) == nil)
    }

    private func get(_ base: String, _ query: String) async throws -> (status: Int, rates: [[String: Any]], body: String) {
        let response = try await ProviderHTTPClient(timeout: .seconds(10), retryPolicy: .never).send(ProviderRequest(method: "GET", url: base + "/rates?" + query), provider: "test")
        let body = String(decoding: response.body, as: UTF8.self)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body) as? [[String: Any]]) ?? [], body)
    }

    @Test func theServiceAnswersTheSeedsShapeAndItsMagicZIPCodes() async throws {
        var settings = SandboxSettings()
        settings.timeScale = 10
        // Added once, whether or not the registry serves the wallet yet (two would claim /rates twice).
        let providers = await ProviderRegistry.builtIn.sandboxProviders(settings).filter { !($0 is WalletSandbox) } + [WalletSandbox(id: "wallet", settings: settings)]
        let sandbox = try await SandboxServer(settings: settings, providers: providers).start(host: "127.0.0.1", port: 0)
        do {
            try await checkTheService(at: sandbox.baseURL)
            await sandbox.stop()
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    private func checkTheService(at base: String) async throws {

        let found = try await get(base, "street=350%205th%20Ave&city=New%20York&state=NY&zip=10118&country=US&weight_grams=1200")
        #expect(found.status == 200, "\(found.body)")
        #expect(found.rates.count == 6)
        let first = try #require(found.rates.first)
        #expect(Set(first.keys) == ["id", "carrier", "service", "amount", "currency", "formatted_arrival_date"])
        let amounts = found.rates.compactMap { ($0["amount"] as? String).flatMap(Double.init) }
        #expect(amounts == amounts.sorted())

        let invalid = try await get(base, "street=x&city=Portland&state=OR&zip=10118&country=US")
        #expect(invalid.status == 200 && invalid.rates.isEmpty && invalid.body == "[]")
        let none = try await get(base, "street=x&city=Portland&state=OR&zip=00000&country=US")
        #expect(none.status == 200 && none.body == "[]")
        let failing = try await get(base, "street=x&city=Portland&state=OR&zip=99999&country=US")
        #expect(failing.status == 500)
        let started = ContinuousClock.now
        let slow = try await get(base, "street=x&city=Portland&state=OR&zip=88888&country=US")
        #expect(slow.status == 200)
        #expect(ContinuousClock.now - started >= .milliseconds(250), "3 s at time scale 10")
        let badWeight = try await get(base, "city=Portland&state=OR&zip=97201&country=US&weight_grams=0")
        #expect(badWeight.status == 400 && badWeight.body.contains("weight_grams"))
    }
}
