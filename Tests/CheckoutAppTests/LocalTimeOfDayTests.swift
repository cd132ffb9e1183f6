import Foundation
import Testing

@testable import CheckoutApp

/// The notices' clock time is this machine's local time, as Foundation's local time zone says it.
@Suite struct LocalTimeOfDayTests {
    @Test func aTimeReadsAsTheLocalFormatStyleWritesIt() {
        let style = Date.ISO8601FormatStyle(timeZone: .current).time(includingFractionalSeconds: false)
        var generator = SystemRandomNumberGenerator()
        for seconds in [0, 86_399.9, 1_796_036_400.5] + (0..<500).map({ _ in Double.random(in: 0..<4_102_444_800, using: &generator) }) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(LocalTimeOfDay.text(date) == date.formatted(style), "\(seconds)")
        }
    }
}
