import CheckoutModel
import Foundation
import ProviderWire

/// The sandbox's shipping rates for the wallet sheet: a real table by destination zone and
/// parcel weight, three carriers with three services each, arrival dates counted in business
/// days from today. An address that cannot be shipped to gets no rates (the seed's "invalid
/// shipping postal address").
struct WalletRateTable: Sendable {
    /// A destination as the rates query gives it.
    struct Address: Hashable, Sendable {
        var street: String
        var city: String
        var state: String
        var zip: String
        var country: String
    }

    /// One rate: the seed's `{id, carrier, service, amount, currency, formatted_arrival_date}`,
    /// sent as the client's `WalletRate` so the two cannot drift apart.
    struct Rate: Hashable, Sendable, Encodable {
        let id: String
        let carrier: String
        let service: String
        /// A decimal string in the currency's major unit ("7.85").
        let amount: String
        let currency: String
        let formattedArrivalDate: String
        /// For sorting; not sent.
        let minorUnits: Int

        var wire: WalletRate {
            WalletRate(id: id, carrier: carrier, service: service, amount: amount, currency: currency, formattedArrivalDate: formattedArrivalDate)
        }

        func encode(to encoder: any Encoder) throws {
            try wire.encode(to: encoder)
        }
    }

    /// Where a parcel goes, from the shop in Oregon: the zone prices the rate.
    enum Zone: Int, Sendable {
        case local = 1, regional, national, remote, international
    }

    /// A service: its price in cents at zone 1 for the first 500 g, per zone step, per further
    /// 500 g, and its business days to arrive by zone.
    private struct Service: Sendable {
        let carrier: String
        let name: String
        let id: String
        let base: Int
        let perZone: Int
        let perHalfKilo: Int
        let days: [Zone: Int]
        let international: Bool
    }

    private static let services: [Service] = [
        Service(carrier: "USPS", name: "Ground Advantage", id: "usps_ground_advantage", base: 585, perZone: 95, perHalfKilo: 120,
                days: [.local: 2, .regional: 3, .national: 5, .remote: 7], international: false),
        Service(carrier: "USPS", name: "Priority Mail", id: "usps_priority", base: 925, perZone: 140, perHalfKilo: 160,
                days: [.local: 1, .regional: 2, .national: 3, .remote: 4], international: false),
        Service(carrier: "USPS", name: "Priority Mail International", id: "usps_priority_international", base: 4450, perZone: 0, perHalfKilo: 450,
                days: [.international: 8], international: true),
        Service(carrier: "UPS", name: "Ground", id: "ups_ground", base: 1090, perZone: 110, perHalfKilo: 135,
                days: [.local: 1, .regional: 2, .national: 4, .remote: 5], international: false),
        Service(carrier: "UPS", name: "2nd Day Air", id: "ups_2nd_day_air", base: 2150, perZone: 260, perHalfKilo: 310,
                days: [.local: 2, .regional: 2, .national: 2, .remote: 2], international: false),
        Service(carrier: "UPS", name: "Worldwide Expedited", id: "ups_worldwide_expedited", base: 7900, perZone: 0, perHalfKilo: 620,
                days: [.international: 5], international: true),
        Service(carrier: "FedEx", name: "Ground", id: "fedex_ground", base: 1050, perZone: 105, perHalfKilo: 130,
                days: [.local: 1, .regional: 2, .national: 4, .remote: 5], international: false),
        Service(carrier: "FedEx", name: "Standard Overnight", id: "fedex_standard_overnight", base: 3890, perZone: 420, perHalfKilo: 480,
                days: [.local: 1, .regional: 1, .national: 1, .remote: 1], international: false),
        Service(carrier: "FedEx", name: "International Priority", id: "fedex_international_priority", base: 9450, perZone: 0, perHalfKilo: 700,
                days: [.international: 3], international: true),
    ]

    /// Countries the shop ships to.
    static let countries = ["US", "CA", "GB", "AU", "DE", "TH", "ID"]

    /// The first digit of a US ZIP code names its area of states (the USPS national areas).
    private static let zipAreas: [Character: Set<String>] = [
        "0": ["CT", "MA", "ME", "NH", "NJ", "PR", "RI", "VT", "VI", "AE"],
        "1": ["DE", "NY", "PA"],
        "2": ["DC", "MD", "NC", "SC", "VA", "WV"],
        "3": ["AL", "FL", "GA", "MS", "TN", "AA"],
        "4": ["IN", "KY", "MI", "OH"],
        "5": ["IA", "MN", "MT", "ND", "SD", "WI"],
        "6": ["IL", "KS", "MO", "NE"],
        "7": ["AR", "LA", "OK", "TX"],
        "8": ["AZ", "CO", "ID", "NM", "NV", "UT", "WY"],
        "9": ["AK", "CA", "HI", "OR", "WA", "AP", "GU"],
    ]

    /// The zone of a US state, from the shop in Oregon.
    private static func zone(ofState state: String) -> Zone {
        switch state {
        case "OR", "WA": .local
        case "CA", "ID", "NV": .regional
        case "AK", "HI", "PR", "GU", "VI", "AE", "AA", "AP": .remote
        default: .national
        }
    }

    /// Why an address cannot be shipped to; nil when it can.
    static func problem(with address: Address) -> String? {
        let country = address.country.uppercased()
        guard countries.contains(country) else { return "the shop does not ship to \(address.country.prefix(8))" }
        guard !address.city.trimmedOfWhitespace.isEmpty else { return "the city is missing" }
        guard country == "US" else { return address.zip.trimmedOfWhitespace.isEmpty ? "the postal code is missing" : nil }
        let zip = address.zip.trimmedOfWhitespace
        let digits = zip.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard digits[0].count == 5, digits[0].allSatisfy({ $0.isASCII && $0.isNumber }),
            digits.count == 1 || (digits[1].count == 4 && digits[1].allSatisfy({ $0.isASCII && $0.isNumber }))
        else { return "\(zip.prefix(12)) is not a US ZIP code (12345 or 12345-6789)" }
        let state = address.state.uppercased()
        guard let first = zip.first, let area = zipAreas[first], area.contains(state) else {
            return "ZIP \(zip.prefix(10)) is not in \(state.isEmpty ? "the state given" : String(state.prefix(4)))"
        }
        return nil
    }

    /// The rates for `address` and a parcel of `grams`, cheapest first, arriving from `today`;
    /// empty when the address cannot be shipped to.
    /// The sandbox's fixed exchange rates, per US dollar, for shops that sell in other currencies
    /// (each has two minor units, so a cent becomes this many minor units).
    static let perDollar = ["USD": 1, "THB": 36, "IDR": 16_000]

    static func rates(
        to address: Address, grams: Int, today: Date, currency: String = "USD"
    ) -> [Rate] {
        let factor = perDollar[currency] ?? 1
        guard problem(with: address) == nil else { return [] }
        let country = address.country.uppercased()
        let zone: Zone = country == "US" ? zone(ofState: address.state.uppercased()) : .international
        let halfKilos = max(0, (max(grams, 1) - 1) / 500)
        return services.compactMap { service -> Rate? in
            guard service.international == (zone == .international), let days = service.days[zone] else { return nil }
            let cents = (service.base + service.perZone * (zone.rawValue - 1) + service.perHalfKilo * halfKilos) * factor
            return Rate(
                id: service.id, carrier: service.carrier, service: service.name, amount: "\(cents / 100)." + (cents % 100 < 10 ? "0" : "") + "\(cents % 100)",
                currency: perDollar[currency] == nil ? "USD" : currency, formattedArrivalDate: arrival(after: days, from: today), minorUnits: cents)
        }.sorted { ($0.minorUnits, $0.id) < ($1.minorUnits, $1.id) }
    }

    /// "Tue, Nov 24": `businessDays` working days after `today` (UTC).
    static func arrival(after businessDays: Int, from today: Date) -> String {
        var days = CivilDate.split(today).date.daysSince1970
        var left = businessDays
        while left > 0 {
            days += 1
            let weekday = CivilDate(daysSince1970: days).weekday
            if weekday != 0 && weekday != 6 { left -= 1 }
        }
        // Named by hand: a DateFormatter would load ICU's data for three words.
        let date = CivilDate(daysSince1970: days)
        return "\(date.weekdayAbbreviation), \(date.monthAbbreviation) \(date.day)"
    }
}
