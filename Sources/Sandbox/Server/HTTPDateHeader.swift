import Foundation
import ProviderWire
import Synchronization

/// The `Date` header every answer carries (RFC 9110 §5.6.7, IMF-fixdate), formatted at most once
/// a second, when an answer asks. Hummingbird's own cache builds a Foundation calendar for it,
/// which has ICU canonicalize the local time zone: 0.6 MB of ICU's tables read into every process
/// that serves, and a timer waking it each second even when idle.
final class HTTPDateHeader: Sendable {
    private let latest = Mutex<(second: Int64, text: String)>((.min, ""))

    /// Now, as the header reads.
    var current: String {
        let second = Int64(Date().timeIntervalSince1970.rounded(.down))
        return latest.withLock { latest in
            if latest.second != second { latest = (second, Self.text(secondsSince1970: second)) }
            return latest.text
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for 784111777, in the proleptic Gregorian calendar.
    static func text(secondsSince1970 seconds: Int64) -> String {
        // Before year 1 or past 9999 the header has no form: the clock is clamped to those years.
        let (date, secondOfDay) = CivilDate.split(secondsSince1970: min(max(seconds, -62_135_596_800), 253_402_300_799))
        let pad = ISO8601Milliseconds.pad
        return "\(date.weekdayAbbreviation), \(pad(date.day, 2)) \(date.monthAbbreviation) \(pad(date.year, 4)) "
            + "\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)) GMT"
    }
}
