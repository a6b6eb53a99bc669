import Foundation

/// Writes dates in ISO 8601, UTC: `2024-03-05T07:30:00Z`, with milliseconds (`07:30:00.250Z`) when the date
/// has a fraction of a second, and a year of more than four digits or below zero as it is (`-0001-12-31`).
///
/// Written by hand: `ISO8601DateFormatter` is slow enough to dominate a large export, and dates are always
/// written in UTC, so civil calendar arithmetic is all it takes. Rows in a large export tend to come in date
/// order, so the date part of the last day is kept and reused while the day stays the same.
///
/// ```swift
/// var writer = ExportDateWriter()
/// var bytes: [UInt8] = []
/// writer.append(secondsSince1970: 1_709_623_800.25, to: &bytes)   // 2024-03-05T07:30:00.250Z
/// ```
package struct ExportDateWriter {
    /// The day number (days since 1970-01-01) whose `YYYY-MM-DDT` is in ``prefix``.
    private var day = Int64.min
    private var prefix: [UInt8] = []

    package init() {}

    /// Appends the date `secondsSince1970` seconds after 1970-01-01T00:00:00Z, rounded to the millisecond.
    package mutating func append(secondsSince1970 seconds: Double, to buffer: inout [UInt8]) {
        let milliseconds = (seconds * 1_000).rounded()
        // Beyond about three million years (and for NaN) the arithmetic would overflow.
        guard milliseconds.magnitude < 1e17 else {
            buffer.append(contentsOf: Date(timeIntervalSince1970: seconds).description.utf8)
            return
        }
        let (wholeSeconds, millisecond) = Self.floorDivision(Int64(milliseconds), 1_000)
        let (days, secondOfDay) = Self.floorDivision(wholeSeconds, 86_400)
        if days != day {
            day = days
            prefix = Self.datePrefix(daysSince1970: days)
        }
        buffer.append(contentsOf: prefix)
        Self.appendTwoDigits(secondOfDay / 3_600, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        Self.appendTwoDigits(secondOfDay / 60 % 60, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        Self.appendTwoDigits(secondOfDay % 60, to: &buffer)
        if millisecond != 0 {
            buffer.append(UInt8(ascii: "."))
            ExportText.appendDigits(UInt64(millisecond), minimumWidth: 3, to: &buffer)
        }
        buffer.append(UInt8(ascii: "Z"))
    }

    /// `YYYY-MM-DDT` of a day number.
    private static func datePrefix(daysSince1970 days: Int64) -> [UInt8] {
        let (year, month, day) = CivilDate.of(daysSince1970: days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        ExportText.appendDigits(year.magnitude, minimumWidth: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(month, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(day, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        return bytes
    }

    /// A number from 0 to 99 as two digits.
    private static func appendTwoDigits(_ value: Int64, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }
}
