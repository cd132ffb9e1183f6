import Foundation

/// ISO 8601 with milliseconds and offset (`2022-10-20T20:16:18.051Z`); parsing also takes whole seconds.
public enum ISO8601Milliseconds {
    public static func string(from date: Date) -> String {
        let parts = Parts(date)
        if parts.fitsFixedWidth {
            return String(unsafeUninitializedCapacity: 24) { write(parts, into: $0) }
        }
        return pad(parts.year, 4) + "-" + pad(parts.month, 2) + "-" + pad(parts.date, 2) + "T" + pad(parts.second / 3600, 2) + ":"
            + pad(parts.second / 60 % 60, 2) + ":" + pad(parts.second % 60, 2) + "." + pad(parts.millis, 3) + "Z"
    }

    /// The string's bytes appended to `bytes` (for writers of JSON: no String made in between).
    package static func append(_ date: Date, to bytes: inout [UInt8]) {
        let parts = Parts(date)
        guard parts.fitsFixedWidth else { return bytes.append(contentsOf: string(from: date).utf8) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { stamp in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: stamp[..<write(parts, into: stamp)]))
        }
    }

    /// A date's civil parts, to the millisecond (UTC).
    private struct Parts {
        var year: Int64, month: Int64, date: Int64, second: Int64, millis: Int64

        init(_ value: Date) {
            // Round to the nearest millisecond first: Date is a Double, and .051 may be stored as
            // .0509999. Clamped, so no Date traps (a year far outside 0–9999 is written padded).
            let scaled = (value.timeIntervalSince1970 * 1000).rounded()
            let milliseconds = scaled.isFinite ? Int64(max(-1e17, min(1e17, scaled))) : 0
            let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
            let (wholeSeconds, millis) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
            // By arithmetic (days to a civil date, H. Hinnant's algorithm): a format style costs a
            // tenth of the sandbox's time per request under load.
            let (days, secondOfDay) = wholeSeconds.quotientAndRemainder(dividingBy: 86_400)
            let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
            (year, month, date) = ISO8601Milliseconds.civil(fromDays: day)
            self.second = second
            self.millis = millis
        }

        var fitsFixedWidth: Bool { (0...9999).contains(year) }
    }

    /// Year, month, day of the day `days` after 1970-01-01 (proleptic Gregorian).
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let date = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, date)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` written digit by digit into 24 bytes: the sandbox stamps every
    /// record with it, and joining thirteen small strings was most of its cost.
    private static func write(_ parts: Parts, into bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        // Two digits at a time, each pair written directly (no loop, no generic stride).
        func pair(_ value: Int64, at index: Int) {
            let value = Int(value)
            bytes[index] = UInt8(truncatingIfNeeded: 48 + value / 10)
            bytes[index + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
        }
        pair(parts.year / 100, at: 0)
        pair(parts.year % 100, at: 2)
        bytes[4] = UInt8(ascii: "-")
        pair(parts.month, at: 5)
        bytes[7] = UInt8(ascii: "-")
        pair(parts.date, at: 8)
        bytes[10] = UInt8(ascii: "T")
        pair(parts.second / 3600, at: 11)
        bytes[13] = UInt8(ascii: ":")
        pair(parts.second / 60 % 60, at: 14)
        bytes[16] = UInt8(ascii: ":")
        pair(parts.second % 60, at: 17)
        bytes[19] = UInt8(ascii: ".")
        bytes[20] = UInt8(truncatingIfNeeded: 48 + parts.millis / 100)
        pair(parts.millis % 100, at: 21)
        bytes[23] = UInt8(ascii: "Z")
        return 24
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    public static func date(from text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
