import Foundation
import StillpointCore

/// A calendar date without a time or a zone, in the proleptic Gregorian calendar.
///
/// Arithmetic works on `dayNumber`, the count of days since 1970-01-01, so it never steps
/// through instants and 23- or 25-hour days cannot shift it. It encodes as `"yyyy-MM-dd"`.
///
/// ```swift
/// let day = LocalDay("2024-02-28")!
/// day.adding(days: 1).description   // "2024-02-29"
/// day.weekday                       // .wednesday
/// ```
public struct LocalDay: Sendable, Hashable, Comparable, Strideable, Codable, LosslessStringConvertible {
    /// Days since 1970-01-01, which is day 0. The only stored property: a day is 8 bytes, so that values holding
    /// one (a report's days, held by a service for thousands of practitioners) keep it in place, not boxed.
    public let dayNumber: Int

    /// The year; 0 is 1 BC, as in ISO 8601.
    public var year: Int { Int(civil.year) }
    /// The month, 1 through 12.
    public var month: Int { Int(civil.month) }
    /// The day of the month, 1 through 31.
    public var day: Int { Int(civil.day) }

    /// The year, month and day, computed from the day number (a few integer operations).
    private var civil: (year: Int64, month: Int64, day: Int64) {
        CivilDate.of(daysSince1970: Int64(dayNumber))
    }

    /// The day with the given number of days since 1970-01-01.
    ///
    /// ```swift
    /// LocalDay(dayNumber: 0).description   // "1970-01-01"
    /// ```
    public init(dayNumber: Int) {
        self.dayNumber = dayNumber
    }

    /// The given date, or `nil` when it does not exist (February 30, month 13).
    ///
    /// ```swift
    /// LocalDay(year: 2023, month: 2, day: 29)   // nil
    /// ```
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...LocalDay.daysIn(month: month, year: year)).contains(day) else {
            return nil
        }
        // Howard Hinnant's days_from_civil, the inverse of init(dayNumber:).
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        self.dayNumber = era * 146_097 + dayOfEra - 719_468
    }

    /// Parses a strict ISO 8601 calendar date, `yyyy-MM-dd`; `nil` for anything else.
    ///
    /// ```swift
    /// LocalDay("2026-05-18")?.month   // 5
    /// LocalDay("2026-5-18")           // nil
    /// ```
    public init?(_ description: String) {
        let bytes = Array(description.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The date as `yyyy-MM-dd`.
    public var description: String {
        let (year, month, day) = civil
        let yearText = String(abs(year))
        let paddedYear = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
        let twoDigits = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
        return (year < 0 ? "-" : "") + paddedYear + "-" + twoDigits(month) + "-" + twoDigits(day)
    }

    /// The day `days` days later (earlier when negative).
    ///
    /// ```swift
    /// LocalDay("2025-12-31")!.adding(days: 1).description   // "2026-01-01"
    /// ```
    public func adding(days: Int) -> LocalDay {
        LocalDay(dayNumber: dayNumber + days)
    }

    /// The day of the week.
    ///
    /// ```swift
    /// LocalDay("1970-01-01")!.weekday   // .thursday
    /// ```
    public var weekday: Weekday {
        // 1970-01-01 (day 0) was a Thursday, index 3 counting from Monday.
        Weekday(index: dayNumber + 3)
    }

    /// The first day of the week that contains this day, for weeks starting on `firstWeekday`.
    ///
    /// ```swift
    /// LocalDay("2024-03-15")!.startOfWeek(startingOn: .monday).description   // "2024-03-11"
    /// ```
    public func startOfWeek(startingOn firstWeekday: Weekday) -> LocalDay {
        let daysIntoWeek = ((weekday.index - firstWeekday.index) % 7 + 7) % 7
        return adding(days: -daysIntoWeek)
    }

    /// The quarter of the year, 1 through 4.
    ///
    /// ```swift
    /// LocalDay("2024-05-01")!.quarter   // 2
    /// ```
    public var quarter: Int {
        (month - 1) / 3 + 1
    }

    /// The first day of this day's month, a key for totals per month.
    ///
    /// ```swift
    /// LocalDay("2024-02-29")!.startOfMonth.description   // "2024-02-01"
    /// ```
    public var startOfMonth: LocalDay {
        adding(days: 1 - day)
    }

    /// The first day of this day's quarter, a key for totals per quarter.
    ///
    /// ```swift
    /// LocalDay("2024-05-20")!.startOfQuarter.description   // "2024-04-01"
    /// ```
    public var startOfQuarter: LocalDay {
        let (year, month, _) = civil
        return LocalDay(uncheckedYear: Int(year), month: Int((month - 1) / 3 * 3 + 1), day: 1)
    }

    /// The first day of this day's year, a key for totals per year.
    ///
    /// ```swift
    /// LocalDay("2024-05-20")!.startOfYear.description   // "2024-01-01"
    /// ```
    public var startOfYear: LocalDay {
        LocalDay(uncheckedYear: year, month: 1, day: 1)
    }

    // MARK: Protocols

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        lhs.dayNumber < rhs.dayNumber
    }

    public static func == (lhs: LocalDay, rhs: LocalDay) -> Bool {
        lhs.dayNumber == rhs.dayNumber
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(dayNumber)
    }

    public func distance(to other: LocalDay) -> Int {
        other.dayNumber - dayNumber
    }

    public func advanced(by days: Int) -> LocalDay {
        adding(days: days)
    }

    /// Decodes the `yyyy-MM-dd` text that `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = LocalDay(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected a yyyy-MM-dd date, found \"\(text)\"")
        }
        self = day
    }

    /// Encodes as `yyyy-MM-dd` text, readable in JSON reports.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: Helpers

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return isLeap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    /// For dates known to exist, such as the first of a valid month.
    private init(uncheckedYear year: Int, month: Int, day: Int) {
        // Force-unwrap is safe: callers pass a valid month and day 1.
        self = LocalDay(year: year, month: month, day: day)!  // swiftlint:disable:this force_unwrapping: callers pass a valid month and day 1
    }
}
