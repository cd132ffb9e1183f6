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

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    public static func date(from text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
