#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ProviderWire

/// `20:01:05`: a time as this machine's clock shows it, by the C library's local time (which
/// honours `TZ`). Foundation's local time zone comes from ICU, whose first use reads 0.6 MB of its
/// tables into the process: for one short line on the screen.
enum LocalTimeOfDay {
    static func text(_ date: Date) -> String {
        let whole = CivilDate.wholeSeconds(since1970: date)
        var seconds = time_t(whole)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else {
            let secondOfDay = CivilDate.split(secondsSince1970: whole).secondOfDay
            return clock(secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60)
        }
        return clock(Int64(parts.tm_hour), Int64(parts.tm_min), Int64(parts.tm_sec))
    }

    private static func clock(_ hour: Int64, _ minute: Int64, _ second: Int64) -> String {
        let pad = ISO8601Milliseconds.pad
        return pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
    }
}
