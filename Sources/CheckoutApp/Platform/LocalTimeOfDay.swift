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
        let rounded = date.timeIntervalSince1970.rounded(.down)
        let whole = rounded.isFinite ? Int64(max(-1e15, min(1e15, rounded))) : 0
        var seconds = time_t(whole)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else {
            let secondOfDay = CivilDate.split(secondsSince1970: whole).secondOfDay
            return clock(Int(secondOfDay / 3_600), Int(secondOfDay / 60 % 60), Int(secondOfDay % 60))
        }
        return clock(Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    private static func clock(_ hour: Int, _ minute: Int, _ second: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return two(hour) + ":" + two(minute) + ":" + two(second)
    }
}
