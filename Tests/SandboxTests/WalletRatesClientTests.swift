import Foundation
@testable import ProviderClients
import ProviderWire
import Testing

/// The rates client against the sandbox's `/rates`: the query appended to the endpoint as given
/// (with `&` after a query it already has), percent-encoded, and each failure kept apart.
@Suite struct WalletRatesClientTests {
    typealias Fixture = WalletTestSandbox

    @Test func theQueryIsAppendedAfterQuestionMarkOrAmpersand() {
        let query = [("street", "350 5th Ave"), ("city", "New York"), ("zip", "10118&x=1#top")]
        let encoded = "street=350%205th%20Ave&city=New%20York&zip=10118%26x%3D1%23top"
        #expect(WalletRatesClient.url("http://h/rates", query: query) == "http://h/rates?" + encoded)
        #expect(WalletRatesClient.url("http://h/rates?key=abc", query: query) == "http://h/rates?key=abc&" + encoded)
        #expect(WalletRatesClient.url("http://h/rates?", query: query) == "http://h/rates?" + encoded)
        #expect(WalletRatesClient.url("http://h/rates?key=abc&", query: query) == "http://h/rates?key=abc&" + encoded)
        #expect(WalletRatesClient.url("http://h/rates#here", query: query) == "http://h/rates?" + encoded + "#here")
    }

    @Test(arguments: ["/rates", "/rates?source=terminal"])
    func ratesComeFromTheSandboxWithOrWithoutAQueryOnTheEndpoint(path: String) async throws {
        try await Fixture.with { sandbox in
            let http = sandbox.http
            let client = WalletRatesClient(endpoint: sandbox.baseURL + path, http: http)
            let rates = try await client.rates(street: "350 5th Ave", city: "New York", state: "NY", zip: "10118", country: "US", weightGrams: 1200)
            #expect(rates.count == 6)
            #expect(rates.first { $0.id == "usps_ground_advantage" }?.amount == "10.15", "1.2 kg to zone 3: the weight arrived")
            #expect(rates.allSatisfy { $0.currency == "USD" && !$0.formattedArrivalDate.isEmpty })
            let sent = try #require(http.log.entries.last)
            #expect(sent.provider == "wallet")
            #expect(sent.url.hasPrefix(sandbox.baseURL + path + (path.contains("?") ? "&" : "?") + "street=350%205th%20Ave&city=New%20York"), "\(sent.url)")
        }
    }

    @Test func failuresAreKeptApart() async throws {
        try await Fixture.with { sandbox in
            let client = WalletRatesClient(endpoint: sandbox.baseURL + "/rates", http: sandbox.http)
            // Magic ZIP 99999: the service fails.
            do throws(WalletRatesFailure) {
                _ = try await client.rates(street: "1 Main St", city: "Portland", state: "OR", zip: "99999", country: "US", weightGrams: nil)
                Issue.record("99999 gave rates")
            } catch {
                guard case .http(500, let body) = error else { Issue.record("\(error)"); return }
                #expect(body.contains("99999"))
            }
            // An address that cannot be shipped to: no rates, not a failure.
            let none = try await client.rates(street: "x", city: "Paris", state: "", zip: "75001", country: "FR", weightGrams: nil)
            #expect(none.isEmpty)
            // Not a rates service at all.
            let wrong = WalletRatesClient(endpoint: sandbox.baseURL + "/sandbox/ledger", http: sandbox.http)
            do throws(WalletRatesFailure) {
                _ = try await wrong.rates(street: "x", city: "y", state: "OR", zip: "97201", country: "US", weightGrams: nil)
                Issue.record("the ledger read as rates")
            } catch {
                guard case .undecodable(let wire) = error else { Issue.record("\(error)"); return }
                #expect(wire.field == "rates")
            }
            let nobody = WalletRatesClient(endpoint: "http://127.0.0.1:9/rates", http: sandbox.http)
            do throws(WalletRatesFailure) {
                _ = try await nobody.rates(street: "x", city: "y", state: "OR", zip: "97201", country: "US", weightGrams: nil)
                Issue.record("port 9 gave rates")
            } catch {
                guard case .transport = error else { Issue.record("\(error)"); return }
                #expect(error.description.contains("did not answer"))
            }
        }
    }
}
