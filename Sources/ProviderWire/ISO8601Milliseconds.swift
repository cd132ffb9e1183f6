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
            let civil = CivilDate(daysSince1970: day)
            (year, month, date) = (civil.year, civil.month, civil.day)
            self.second = second
            self.millis = millis
        }

        var fitsFixedWidth: Bool { (0...9999).contains(year) }
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

    package static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    public static func date(from text: String) -> Date? {
        if let date = commonForm(text, fractionAllowed: true) { return date }
        return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// `2022-10-20T20:16:18.051Z` or `2022-10-20T20:16:18+08:00`, from 1583 on, read by hand:
    /// a format style's first use has ICU read the local time zone's data (0.6 MB resident) and
    /// each parse builds a calendar. Nil for anything else, which the format styles then judge,
    /// so this reads a subset of what they read, to the same instant.
    package static func commonForm(_ text: String, fractionAllowed: Bool) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard (20...40).contains(bytes.count) else { return nil }
            func number(at start: Int, digits: Int) -> Int64? {
                var value: Int64 = 0
                for index in start..<start + digits {
                    let digit = bytes[index] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int64(digit)
                }
                return value
            }
            func byte(_ index: Int, is character: Unicode.Scalar) -> Bool { index < bytes.count && bytes[index] == UInt8(ascii: character) }
            guard let year = number(at: 0, digits: 4), byte(4, is: "-"), let month = number(at: 5, digits: 2), byte(7, is: "-"),
                let day = number(at: 8, digits: 2), byte(10, is: "T"), let hour = number(at: 11, digits: 2), byte(13, is: ":"),
                let minute = number(at: 14, digits: 2), byte(16, is: ":"), let second = number(at: 17, digits: 2)
            else { return nil }
            // Before the Gregorian calendar's start the format styles count Julian days.
            let date = CivilDate(year: year, month: month, day: day)
            guard year >= 1583, date.isValid, hour < 24, minute < 60, second < 60 else { return nil }
            var index = 19
            var nanoseconds: Int64 = 0
            if byte(index, is: ".") {
                guard fractionAllowed else { return nil }
                index += 1
                var digits = 0
                while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                    guard digits < 9 else { return nil }
                    nanoseconds = nanoseconds * 10 + Int64(bytes[index] &- UInt8(ascii: "0"))
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<9 { nanoseconds *= 10 }
            }
            var offsetSeconds: Int64 = 0
            if byte(index, is: "Z") {
                guard index + 1 == bytes.count else { return nil }
            } else {
                guard byte(index, is: "+") || byte(index, is: "-"), index + 6 == bytes.count, byte(index + 3, is: ":"),
                    let offsetHours = number(at: index + 1, digits: 2), let offsetMinutes = number(at: index + 4, digits: 2),
                    offsetHours < 24, offsetMinutes < 60
                else { return nil }
                offsetSeconds = (offsetHours * 3_600 + offsetMinutes * 60) * (byte(index, is: "-") ? -1 : 1)
            }
            let seconds = date.daysSince1970 * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
            return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
        }
    }
}
