import Foundation
import ProviderWire
import Testing

/// Days by arithmetic agree with Foundation's Gregorian calendar in UTC, and the hand-read
/// ISO 8601 times with the format styles.
@Suite struct CivilDateTests {
    private var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }

    @Test func aDayIsTheCalendarsDay() {
        let calendar = utc
        var generator = SystemRandomNumberGenerator()
        // From 1583: before that the calendar counts Julian days.
        let edges: [Int64] = [0, -1, 59, 60, 365, 10_956, 11_016, -141_427, 2_932_896]
        for days in edges + (0..<3_000).map({ _ in Int64.random(in: -141_427...2_932_896, using: &generator) }) {
            let date = CivilDate(daysSince1970: days)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            #expect([date.year, date.month, date.day] == [parts.year, parts.month, parts.day].map { Int64($0 ?? 0) }, "\(days)")
            #expect(date.weekday == (parts.weekday ?? 0) - 1, "\(days)")
            #expect(date.daysSince1970 == days)
            #expect(date.isValid)
        }
    }

    @Test func onlyRealDaysAreValid() {
        #expect(CivilDate(year: 2024, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2023, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 1900, month: 2, day: 29).isValid)
        #expect(CivilDate(year: 2000, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2026, month: 4, day: 31).isValid)
        #expect(!CivilDate(year: 2026, month: 13, day: 1).isValid)
        #expect(!CivilDate(year: 2026, month: 1, day: 0).isValid)
    }

    @Test func aSecondSplitsIntoItsDayAndTime() {
        #expect(CivilDate.split(secondsSince1970: -1) == (CivilDate(year: 1969, month: 12, day: 31), 86_399))
        #expect(CivilDate.split(secondsSince1970: 86_400) == (CivilDate(year: 1970, month: 1, day: 2), 0))
    }

    /// Every common form, as ISO8601Milliseconds and Antom write and the providers send, reads as
    /// the same instant the format styles read; what they alone read still reads.
    @Test func commonFormsReadAsTheFormatStylesReadThem() throws {
        var generator = SystemRandomNumberGenerator()
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: -12_212_553_600..<253_402_300_800, using: &generator)
            let (day, secondOfDay) = CivilDate.split(secondsSince1970: seconds)
            func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let digits = Int.random(in: 0...9, using: &generator)
            let fraction = digits == 0 ? "" : "." + String((0..<digits).map { _ in "0123456789".randomElement(using: &generator)! })
            let offsetMinutes = Int64.random(in: -14 * 60...14 * 60, using: &generator) / 15 * 15
            let zone = Bool.random(using: &generator) ? "Z"
                : (offsetMinutes < 0 ? "-" : "+") + two(abs(offsetMinutes) / 60) + ":" + two(abs(offsetMinutes) % 60)
            let text = "\(day.year)-\(two(day.month))-\(two(day.day))T\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
                + fraction + zone
            let hand = try #require(ISO8601Milliseconds.commonForm(text, fractionAllowed: true), "\(text)")
            let style = try #require((try? fractional.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)), "\(text)")
            // The format style's own arithmetic strays by up to 2⁻¹⁶ s in far years.
            #expect(abs(hand.timeIntervalSince1970 - style.timeIntervalSince1970) < 1e-4, "\(text)")
            #expect(ISO8601Milliseconds.date(from: text) == hand)
            if fraction.isEmpty { #expect(AntomTime.date(text) == hand) }
        }
    }

    @Test func otherFormsAreLeftToTheFormatStyles() {
        for text in ["2026-02-30T10:00:00Z", "2026-11-29T24:00:00Z", "1500-01-01T00:00:00Z", "2026-11-29T10:00:00", "2026-11-29T10:00:00.Z",
                     "2026-11-29T10:00:00.1234567890Z", "2026-11-29T10:00:00+0800", "2026-11-29 10:00:00Z", "2026-11-29T10:00:00Zx", "yesterday", ""] {
            #expect(ISO8601Milliseconds.commonForm(text, fractionAllowed: true) == nil, "\(text)")
        }
        #expect(ISO8601Milliseconds.commonForm("2026-11-29T10:00:00.5Z", fractionAllowed: false) == nil)
        #expect(AntomTime.date("2026-11-29T10:00:00.5Z") == (try? Date.ISO8601FormatStyle().parse("2026-11-29T10:00:00.5Z")))
        // The format style reads February 30th as March 2nd: as it did before the hand reading.
        #expect(ISO8601Milliseconds.date(from: "2026-02-30T10:00:00Z") == (try? Date.ISO8601FormatStyle().parse("2026-02-30T10:00:00Z")))
    }
}
