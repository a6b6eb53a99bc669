import Foundation
import PracticeLog
import StillpointStatistics
import Testing

/// A row of the "current and longest streak" table of docs/statistics.md: sessions by days before today, `*` for
/// those shorter than `minimum_duration`, with the current and longest streaks expected.
struct DaysBeforeTodayCase: Sendable, CustomTestStringConvertible {
    var sessions: String
    var current: Int
    var longest: Int

    var testDescription: String { sessions.isEmpty ? "none" : sessions }

    /// Today is 2024-03-15; the report is made at 23:30 UTC so that every session of today counts.
    static let today = LocalDay("2024-03-15")!
    static let parameters: [String: ParameterValue] = [
        "as_of": "2024-03-15T23:30:00Z", "time_zone": "UTC", "minimum_duration": "10m",
    ]

    /// The table, with `a...b` written out.
    static let table: [DaysBeforeTodayCase] = [
        .init(sessions: "", current: 0, longest: 0),
        .init(sessions: "0*, 1*, 2*", current: 0, longest: 0),
        .init(sessions: "0, 1, 2", current: 3, longest: 3),
        .init(sessions: "1, 2, 3", current: 3, longest: 3),
        .init(sessions: "2, 3, 4", current: 0, longest: 3),
        .init(sessions: "0, 1, 3, 4", current: 2, longest: 2),
        .init(sessions: "0, 0, 0, 1, 1", current: 2, longest: 2),  // three on day 0, two on day 1
        .init(sessions: "0, 0*, 1, 2*, 3", current: 2, longest: 2),
        .init(sessions: "0, 1, 2, 5, 6, 7, 8, 9, 12, 13", current: 3, longest: 5),
        .init(sessions: "0, 2, 4, 6", current: 1, longest: 1),
        .init(sessions: (0...99).map(String.init).joined(separator: ", "), current: 100, longest: 100),
    ]

    /// 20-minute sessions, or 5-minute ones for `*`; several on one day start three hours apart.
    var exampleSessions: [ExampleSession] {
        var perDay: [Int: Int] = [:]
        return sessions.split(separator: ",").map { item in
            let text = item.trimmingCharacters(in: .whitespaces)
            let isShort = text.hasSuffix("*")
            let daysBefore = Int(text.dropLast(isShort ? 1 : 0))!
            let hour = 6 + 3 * perDay[daysBefore, default: 0]
            perDay[daysBefore, default: 0] += 1
            let hourText = hour < 10 ? "0\(hour)" : "\(hour)"
            return ExampleSession("\(Self.today.adding(days: -daysBefore))T\(hourText):00:00Z", minutes: isShort ? 5 : 20)
        }
    }
}
