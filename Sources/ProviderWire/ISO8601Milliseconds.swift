import Foundation

/// ISO 8601 with milliseconds and offset (`2022-10-20T20:16:18.051Z`); parsing also takes whole seconds.
public enum ISO8601Milliseconds {
    public static func string(from date: Date) -> String {
        // Round to the nearest millisecond first: Date is a Double, and .051 may be stored as .0509999.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, millis) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        // By arithmetic (days to a civil date, H. Hinnant's algorithm): a format style costs a
        // tenth of the sandbox's time per request under load.
        let (days, secondOfDay) = wholeSeconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, date) = civil(fromDays: day)
        if (0...9999).contains(year) {
            return fixedWidth(year: year, month: month, date: date, second: second, millis: millis)
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(date, 2) + "T" + pad(second / 3600, 2) + ":" + pad(second / 60 % 60, 2) + ":"
            + pad(second % 60, 2) + "." + pad(millis, 3) + "Z"
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

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` written digit by digit into one 24-byte string: the sandbox
    /// stamps every record with it, and joining thirteen small strings was most of its cost.
    private static func fixedWidth(year: Int64, month: Int64, date: Int64, second: Int64, millis: Int64) -> String {
        String(unsafeUninitializedCapacity: 24) { bytes in
            func put(_ value: Int64, _ width: Int, at end: Int) {
                var rest = value
                for index in stride(from: end - 1, through: end - width, by: -1) {
                    bytes[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
            }
            put(year, 4, at: 4)
            bytes[4] = UInt8(ascii: "-")
            put(month, 2, at: 7)
            bytes[7] = UInt8(ascii: "-")
            put(date, 2, at: 10)
            bytes[10] = UInt8(ascii: "T")
            put(second / 3600, 2, at: 13)
            bytes[13] = UInt8(ascii: ":")
            put(second / 60 % 60, 2, at: 16)
            bytes[16] = UInt8(ascii: ":")
            put(second % 60, 2, at: 19)
            bytes[19] = UInt8(ascii: ".")
            put(millis, 3, at: 23)
            bytes[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    public static func date(from text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
