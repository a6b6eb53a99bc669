import Foundation

/// The text of attribute values in exports: numbers as Swift prints them (the shortest form that reads back
/// the same), dates in ISO 8601, UUIDs upper-case, binary values in Base64.
enum ExportText {
    static func plain(_ value: AttributeValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let number): return String(number)
        case .double(let number): return number.description
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return iso8601(date)
        case .uuid(let uuid): return uuid.uuidString
        case .binary(let data): return data.base64EncodedString()
        }
    }

    /// `2024-03-05T07:30:00Z`, with milliseconds (`07:30:00.250Z`) when the date has a fraction of a second.
    ///
    /// Written by hand: `ISO8601DateFormatter` is slow enough to dominate a large export, and dates are
    /// always written in UTC, so the civil calendar arithmetic is all that is needed.
    static func iso8601(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.magnitude < 1e17 else { return date.description }
        let totalMilliseconds = Int64(milliseconds)
        let (seconds, millisecond) = floorDivision(totalMilliseconds, 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if millisecond != 0 { text += "." + pad(millisecond, 3) }
        return text + "Z"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01), after Howard Hinnant's
    /// `civil_from_days`.
    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
