import Foundation
import ProviderWire
import Testing

/// The rates answer as the wallet sheet reads it: strictly, every rate showable and priced, the
/// error naming the field at fault.
@Suite struct WalletRatesDecodingTests {
    static let good = #"{"id": "ups_ground", "carrier": "UPS", "service": "Ground", "amount": "13.10", "currency": "USD", "formatted_arrival_date": "Thu, Nov 26"}"#

    @Test func theSeedsShapeReads() throws {
        let rates = try WalletRatesDecoding.decode(Data("[\(Self.good), {\"id\": \"r2\", \"carrier\": \"USPS\", \"service\": \"Priority\", \"amount\": \"7\", \"formatted_arrival_date\": \"\"}]".utf8))
        #expect(rates == [
            WalletRate(id: "ups_ground", carrier: "UPS", service: "Ground", amount: "13.10", currency: "USD", formattedArrivalDate: "Thu, Nov 26"),
            WalletRate(id: "r2", carrier: "USPS", service: "Priority", amount: "7", currency: nil, formattedArrivalDate: ""),
        ])
        #expect(try WalletRatesDecoding.decode(Data("[]".utf8)).isEmpty)
    }

    @Test func aRateEncodesAsTheSeedsJSON() throws {
        let rate = WalletRate(id: "a", carrier: "USPS", service: "Ground", amount: "7.45", currency: "USD", formattedArrivalDate: "Tue, Nov 24")
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(rate)) as? [String: Any]
        #expect(Set(object?.keys ?? [:].keys) == ["id", "carrier", "service", "amount", "currency", "formatted_arrival_date"])
        #expect(try WalletRatesDecoding.decode(try JSONEncoder().encode([rate])) == [rate])
    }

    /// A body, and the start of the error it must get.
    @Test(arguments: [
        ("", "rates: the body is not JSON"),
        (#"{"rates": []}"#, "rates: the body is not a JSON array"),
        (#""7.45""#, "rates: the body is not a JSON array"),
        ("[7]", "rates[0]: a rate must be a JSON object"),
        (#"[GOOD, {"carrier": "UPS", "service": "Ground", "amount": "1.00", "formatted_arrival_date": ""}]"#, "rates[1].id: missing"),
        (#"[{"id": "", "carrier": "UPS", "service": "Ground", "amount": "1.00", "formatted_arrival_date": ""}]"#, "rates[0].id: must not be empty"),
        (#"[{"id": "x", "carrier": 7, "service": "Ground", "amount": "1.00", "formatted_arrival_date": ""}]"#, "rates[0].carrier: must be a string"),
        (#"[{"id": "x", "carrier": "UPS", "service": "LONG", "amount": "1.00", "formatted_arrival_date": ""}]"#, "rates[0].service: longer than 200"),
        (#"[{"id": "x", "carrier": "UPS\u001b[2J", "service": "S", "amount": "1.00", "formatted_arrival_date": ""}]"#, "rates[0].carrier: contains control"),
        (#"[GOOD, {"id": "y", "carrier": "UPS", "service": "S", "amount": "7.45", "formatted_arrival_date": ""}, {"id": "x", "carrier": "UPS", "service": "S", "amount": "7.4.5", "formatted_arrival_date": ""}]"#, #"rates[2].amount: "7.4.5" is not a decimal amount"#),
        (#"[{"id": "x", "carrier": "UPS", "service": "S", "amount": "-1.00", "formatted_arrival_date": ""}]"#, #"rates[0].amount: "-1.00" is not"#),
        (#"[{"id": "x", "carrier": "UPS", "service": "S", "amount": "7.455", "formatted_arrival_date": ""}]"#, #"rates[0].amount: "7.455" is not"#),
        (#"[{"id": "x", "carrier": "UPS", "service": "S", "amount": "7.", "formatted_arrival_date": ""}]"#, #"rates[0].amount: "7." is not"#),
        (#"[{"id": "x", "carrier": "UPS", "service": "S", "amount": 7.45, "formatted_arrival_date": ""}]"#, "rates[0].amount: must be a string"),
        (#"[{"id": "x", "carrier": "UPS", "service": "S", "amount": "1e3", "formatted_arrival_date": ""}]"#, #"rates[0].amount: "1e3" is not"#),
        (#"[{"id": "x", "carrier": "UPS", "service": "S", "amount": "1.00", "currency": "usd", "formatted_arrival_date": ""}]"#, #"rates[0].currency: "usd" is not"#),
        (#"[{"id": "x", "carrier": "UPS", "service": "S", "amount": "1.00"}]"#, "rates[0].formatted_arrival_date: missing"),
        (#"[GOOD, GOOD]"#, #"rates[1].id: "ups_ground" is the id of an earlier rate"#),
    ])
    func aBrokenAnswerNamesTheField(body: String, expected: String) {
        let text = body.replacingOccurrences(of: "GOOD", with: Self.good).replacingOccurrences(of: "LONG", with: String(repeating: "x", count: 201))
        do throws(WalletWireError) {
            let rates = try WalletRatesDecoding.decode(Data(text.utf8))
            Issue.record("read \(rates)")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
    }

    @Test func moreRatesThanASheetListsIsRefused() {
        let many = "[" + (0...WalletRatesDecoding.maxRates).map { Self.good.replacingOccurrences(of: "ups_ground", with: "r\($0)") }.joined(separator: ",") + "]"
        #expect(throws: WalletWireError.self) { try WalletRatesDecoding.decode(Data(many.utf8)) }
    }
}
