import Foundation

/// A day of the proleptic Gregorian calendar, counted from 1970-01-01, by arithmetic (H. Hinnant's
/// `civil_from_days` and `days_from_civil`). Foundation's calendars start by asking ICU for the
/// local time zone, which reads 0.6 MB of its tables into the process; UTC needs none of that.
public struct CivilDate: Equatable, Sendable {
    public var year: Int64
    /// 1–12.
    public var month: Int64
    /// 1–31.
    public var day: Int64

    public init(year: Int64, month: Int64, day: Int64) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `days` after 1970-01-01.
    public init(daysSince1970 days: Int64) {
        let shifted = days + 719_468  // from 0000-03-01, so that a leap day ends each year
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this day (negative before it). Years within ±10⁹.
    public var daysSince1970: Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 0 for Sunday through 6 for Saturday.
    public var weekday: Int {
        let remainder = (daysSince1970 + 4) % 7  // 1970-01-01 was a Thursday
        return Int(remainder < 0 ? remainder + 7 : remainder)
    }

    /// Whether `day` exists in `month` of `year` (February 29th only in leap years).
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= Self.days(inMonth: month, of: year)
    }

    public static func days(inMonth month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The day and the second within it (0–86,399) of a time in whole seconds since 1970, UTC.
    public static func split(secondsSince1970 seconds: Int64) -> (date: CivilDate, secondOfDay: Int64) {
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        return secondOfDay < 0 ? (CivilDate(daysSince1970: days - 1), secondOfDay + 86_400) : (CivilDate(daysSince1970: days), secondOfDay)
    }

    /// The same for `date`.
    public static func split(_ date: Date) -> (date: CivilDate, secondOfDay: Int64) {
        split(secondsSince1970: wholeSeconds(since1970: date))
    }

    /// `date` to the whole second since 1970, rounded down; clamped to ±10¹⁵ s, far past any
    /// calendar a checkout meets, so no Date traps.
    public static func wholeSeconds(since1970 date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return seconds.isFinite ? Int64(max(-1e15, min(1e15, seconds))) : 0
    }

    /// The weekday's and month's English abbreviations, as HTTP dates and shipping estimates write them.
    public var weekdayAbbreviation: String { Self.weekdays[weekday] }
    public var monthAbbreviation: String { Self.months[Int(min(max(month, 1), 12)) - 1] }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
