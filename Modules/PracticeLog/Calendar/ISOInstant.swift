import Foundation

/// Reads instants written in ISO 8601, strictly: a date or time that does not exist is refused rather than
/// rolled over (Foundation's parser reads 2024-02-30 as 1 March).
///
/// Accepted: a date `yyyy-MM-dd` (its start in UTC), or a date and time `yyyy-MM-ddTHH:mm[:ss[.fff]]` with a
/// zone `Z`, `±HH:MM`, `±HHMM` or `±HH` of at most 14 hours. Hours run 0 through 23, minutes and seconds
/// 0 through 59.
///
/// ```swift
/// ISOInstant.parse("2024-03-15T12:00:00Z")       // 2024-03-15 12:00 UTC
/// ISOInstant.parse("2024-03-15T13:00:00+01:00")  // the same instant
/// ISOInstant.parse("2024-03-15")                 // 2024-03-15 00:00 UTC
/// ISOInstant.parse("2024-02-30")                 // nil
/// ISOInstant.parse("2024-03-15T25:00:00Z")       // nil
/// ```
public enum ISOInstant {
    /// How an instant is written, for messages about one that is not.
    public static let expectedForm = "an ISO 8601 instant such as 2024-03-15T12:00:00Z or 2024-03-15T13:00:00+01:00, or a date such as 2024-03-15"

    /// The instant `text` names, or `nil` when it is not one (malformed, or naming a date or time that does not exist).
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, let day = LocalDay(String(decoding: bytes[0..<10], as: UTF8.self)) else { return nil }
        if bytes.count == 10 { return Date(timeIntervalSince1970: TimeInterval(day.dayNumber) * 86_400) }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return nil }
        var reader = Reader(bytes: bytes, position: 11)
        guard let hour = reader.digits(2), (0...23).contains(hour), reader.skip(":"),
              let minute = reader.digits(2), (0...59).contains(minute) else { return nil }
        var seconds = 0.0
        if reader.skip(":") {
            guard let whole = reader.digits(2), (0...59).contains(whole) else { return nil }
            seconds = Double(whole)
            if reader.skip(".") || reader.skip(",") {
                let start = reader.position
                while reader.digit() != nil {}
                let count = reader.position - start
                guard count >= 1, count <= 9,
                      let fraction = Double("0." + String(decoding: bytes[start..<reader.position], as: UTF8.self))
                else { return nil }
                seconds += fraction
            }
        }
        guard let offset = reader.zoneOffset(), reader.atEnd else { return nil }
        let local = TimeInterval(day.dayNumber) * 86_400 + TimeInterval(hour * 3_600 + minute * 60) + seconds
        return Date(timeIntervalSince1970: local - TimeInterval(offset))
    }

    /// A cursor over ASCII bytes.
    private struct Reader {
        let bytes: [UInt8]
        var position: Int

        var atEnd: Bool { position == bytes.count }

        mutating func digit() -> Int? {
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { return nil }
            defer { position += 1 }
            return Int(bytes[position] - UInt8(ascii: "0"))
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// `Z` or `±HH[[:]MM]` in seconds east of UTC; `nil` when missing, malformed or beyond ±14:00.
        mutating func zoneOffset() -> Int? {
            if skip("Z") || skip("z") { return 0 }
            let sign: Int
            if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
            guard let hours = digits(2) else { return nil }
            var minutes = 0
            if !atEnd {
                _ = skip(":")
                guard let parsed = digits(2), (0...59).contains(parsed) else { return nil }
                minutes = parsed
            }
            let total = hours * 3_600 + minutes * 60
            guard total <= 14 * 3_600 else { return nil }
            return sign * total
        }
    }
}
