import Foundation

/// Parses the fixed date formats of the exports by hand: strict about the fields, and much faster than a
/// `DateFormatter` over millions of rows.
enum TimestampParser {
    /// The zone of a session whose time was written without one and read as the wall-clock time the person
    /// saw: the time is stored as if it were UTC, and this zone makes every statistic place it on that day
    /// and hour, whatever the report's zone.
    static let wallClockZone = "Etc/UTC"

    /// The largest offset from UTC a clock on Earth shows (Kiribati, +14:00; the lowest is -12:00).
    static let maxOffset = 14 * 3_600

    /// A date-time and the offset written with it, if any.
    struct Stamp: Equatable {
        var date: Date
        /// Seconds east of UTC, when the text gave an offset (`Z` is 0).
        var offset: Int?
    }

    /// The identifier of a zone that is only an offset, as Foundation names it: `GMT+0200`, `GMT-0530`.
    static func zoneIdentifier(offset: Int) -> String? {
        TimeZone(secondsFromGMT: offset)?.identifier
    }

    /// `yyyy-MM-dd HH:mm:ss` (Meditation Helper, Garmin Connect), as a wall-clock time in `zone` (`nil` is
    /// UTC); seconds may carry a fraction.
    static func dateTime(_ text: String, zone: TimeZone?) -> Date? {
        var scanner = Scanner(text)
        guard let (year, month, day) = scanner.isoDate(), scanner.skip(" "),
              let time = scanner.time(), scanner.isAtEnd
        else { return nil }
        return date(year: year, month: month, day: day, time: time, offset: nil, zone: zone)
    }

    /// The offset of a date-time that is well formed except for an offset beyond ±14:00, such as `+19:00`
    /// in `2024-03-05T07:30:00+19:00`; `nil` for any other text.
    static func offsetBeyondLimit(in text: String) -> String? {
        // The offset follows the time, so it is looked for after the first colon, never in the date.
        guard let colon = text.firstIndex(of: ":"),
              let sign = text[colon...].lastIndex(where: { $0 == "+" || $0 == "-" })
        else { return nil }
        let offsetText = String(text[sign...])
        var scanner = Scanner(offsetText)
        guard let seconds = scanner.offset(limit: 99 * 3_600 + 59 * 60), scanner.isAtEnd, abs(seconds) > maxOffset
        else { return nil }
        return offsetText
    }

    /// `MM/dd/yyyy HH:mm:ss` (Insight Timer), as a wall-clock time in `zone` (`nil` is UTC).
    static func monthDayYear(_ text: String, zone: TimeZone?) -> Date? {
        var scanner = Scanner(text)
        guard let month = scanner.number(digits: 1...2), scanner.skip("/"),
              let day = scanner.number(digits: 1...2), scanner.skip("/"),
              let year = scanner.number(digits: 4...4), scanner.skip(" "),
              let time = scanner.time(), scanner.isAtEnd
        else { return nil }
        return date(year: year, month: month, day: day, time: time, offset: nil, zone: zone)
    }

    /// `yyyy-MM-dd HH:mm:ss Z` (Apple Health), for example `2019-04-10 08:10:34 -0500`.
    static func appleHealth(_ text: String) -> Date? {
        appleHealthStamp(text)?.date
    }

    /// ``appleHealth(_:)`` with the offset it was written with.
    static func appleHealthStamp(_ text: String) -> Stamp? {
        var scanner = Scanner(text)
        guard let (year, month, day) = scanner.isoDate(), scanner.skip(" "),
              let time = scanner.time(), scanner.skip(" "),
              let offset = scanner.offset(), scanner.isAtEnd,
              let date = date(year: year, month: month, day: day, time: time, offset: offset, zone: nil)
        else { return nil }
        return Stamp(date: date, offset: offset)
    }

    /// ISO 8601 as spreadsheets write it: `2024-03-05`, `2024-03-05T07:30`, `2024-03-05 07:30:00`,
    /// `2024-03-05T07:30:00.250+01:00`, `...Z`. Without an offset the time is wall-clock in `zone`.
    static func iso8601(_ text: String, zone: TimeZone?) -> Date? {
        iso8601Stamp(text, zone: zone)?.date
    }

    /// ``iso8601(_:zone:)`` with the offset the text gave, if any.
    static func iso8601Stamp(_ text: String, zone: TimeZone?) -> Stamp? {
        var scanner = Scanner(text)
        guard let (year, month, day) = scanner.isoDate() else { return nil }
        if scanner.isAtEnd {
            return date(year: year, month: month, day: day, time: (0, 0, 0, 0), offset: nil, zone: zone)
                .map { Stamp(date: $0, offset: nil) }
        }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "), let time = scanner.time(secondsOptional: true)
        else { return nil }
        _ = scanner.skip(" ")
        var offset: Int?
        if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if !scanner.isAtEnd {
            guard let parsed = scanner.offset() else { return nil }
            offset = parsed
        }
        guard scanner.isAtEnd else { return nil }
        return date(year: year, month: month, day: day, time: time, offset: offset, zone: zone)
            .map { Stamp(date: $0, offset: offset) }
    }

    typealias Time = (hour: Int, minute: Int, second: Int, fraction: Double)

    /// The instant of a validated civil date and time: at `offset` seconds east of UTC when the text gave
    /// one, otherwise as a wall-clock time in `zone` (UTC when `nil`).
    private static func date(year: Int, month: Int, day: Int, time: Time, offset: Int?, zone: TimeZone?) -> Date? {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              (0...23).contains(time.hour), (0...59).contains(time.minute), (0...59).contains(time.second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let wall = Double(days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second) + time.fraction
        if let offset { return Date(timeIntervalSince1970: wall - Double(offset)) }
        guard let zone else { return Date(timeIntervalSince1970: wall) }
        return instant(wallClock: Date(timeIntervalSince1970: wall), in: zone)
    }

    /// The instant a clock in `zone` showed the wall-clock time `wall` (read as UTC).
    static func instant(wallClock wall: Date, in zone: TimeZone) -> Date {
        // Two steps find the offset in force at that wall-clock time, also across a DST change.
        let guess = wall.addingTimeInterval(-Double(zone.secondsFromGMT(for: wall)))
        return wall.addingTimeInterval(-Double(zone.secondsFromGMT(for: guess)))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A cursor over the UTF-8 bytes of one date string.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ text: String) {
            bytes = Array(text.utf8)
        }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func number(digits: ClosedRange<Int>) -> Int? {
            var value = 0
            var count = 0
            while index < bytes.count, count < digits.upperBound, (48...57).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 48)  // swiftlint:disable:this integer_conversion: one digit, few digits
                index += 1
                count += 1
            }
            return digits.contains(count) ? value : nil
        }

        mutating func isoDate() -> (Int, Int, Int)? {
            guard let year = number(digits: 4...4), skip("-"), let month = number(digits: 2...2), skip("-"),
                  let day = number(digits: 2...2)
            else { return nil }
            return (year, month, day)
        }

        mutating func time(secondsOptional: Bool = false) -> Time? {
            guard let hour = number(digits: 1...2), skip(":"), let minute = number(digits: 1...2) else { return nil }
            guard skip(":") else { return secondsOptional ? (hour, minute, 0, 0) : nil }
            guard let second = number(digits: 1...2) else { return nil }
            var fraction = 0.0
            if skip(".") || skip(",") {
                var scale = 0.1
                let start = index
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    fraction += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
            return (hour, minute, second, fraction)
        }

        /// `+HHMM`, `+HH:MM` or `+HH`, as seconds east of UTC, at most `limit` away from UTC (±14:00).
        mutating func offset(limit: Int = TimestampParser.maxOffset) -> Int? {
            let sign: Int
            if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
            guard let hours = number(digits: 2...2) else { return nil }
            var minutes = 0
            if !isAtEnd {
                _ = skip(":")
                guard let parsed = number(digits: 2...2), parsed < 60 else { return nil }
                minutes = parsed
            }
            let seconds = hours * 3_600 + minutes * 60
            return seconds <= limit ? sign * seconds : nil
        }
    }
}
