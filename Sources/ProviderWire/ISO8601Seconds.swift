import Foundation

/// ISO 8601 to the second with the offset written out: `2026-11-23T10:00:00+00:00` (UTC), as
/// Antom's times and Adyen's eventDate read.
public enum ISO8601Seconds {
    /// What `ISO8601FormatStyle` writes with `Z` as `+00:00`, written directly: every signed
    /// Antom request and answer carries one, and the format style (with the replacement through
    /// NSString) took as long as a third of an RSA signature; its first use also has ICU read the
    /// local time zone's data.
    public static func string(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // Before 1970 or after 9999 (never a request's time; before 1582 its calendar is the
        // Julian) the format style says it as it does.
        guard seconds >= 0, seconds < endSecond else {
            return date.formatted(Date.ISO8601FormatStyle()).replacingOccurrences(of: "Z", with: "+00:00")
        }
        let (day, secondOfDay) = CivilDate.split(secondsSince1970: Int64(seconds))
        let pad = ISO8601Milliseconds.pad
        return pad(day.year, 4) + "-" + pad(day.month, 2) + "-" + pad(day.day, 2) + "T" + pad(secondOfDay / 3_600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "+00:00"
    }

    /// 10000-01-01T00:00:00Z in seconds since 1970.
    static let endSecond: Double = 253_402_300_800
}
