import Foundation
import PracticeLog
import StillpointCatalog
import StillpointReport
import StillpointStatistics

/// Fabricated reports for the reporter tests: a fixed one with every shape of value for the golden files,
/// and a year of generated practice for the HTML screenshot.
enum SampleReports {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2024-03-15 12:00 UTC, 13:00 in Berlin.
    static let asOf = Date(timeIntervalSince1970: 1_710_504_000)

    static func day(_ text: String) -> LocalDay { LocalDay(text)! }

    static func tally(_ count: Int, _ seconds: Double) -> StatisticValue {
        .record([StatisticField("count", .quantity(Double(count), .count)), StatisticField("time", .quantity(seconds, .seconds))])
    }

    static func streak(_ start: String, _ end: String) -> StatisticValue {
        .record([StatisticField("start", .day(day(start))), StatisticField("end", .day(day(end))),
                 StatisticField("length", .quantity(Double(day(start).distance(to: day(end)) + 1), .days))])
    }

    static func finished(_ id: String, _ title: String, _ value: StatisticValue, name: String? = nil,
                         notes: [String] = []) -> ReportEntry {
        entry(id, title, name: name, .finished(StatisticResult(value, notes: notes)))
    }

    /// An entry of the built-in statistic `id`, shown as that statistic's description says, as the runner makes it.
    static func entry(_ id: String, _ title: String, name: String? = nil, _ outcome: ReportOutcome) -> ReportEntry {
        ReportEntry(id: id, name: name ?? id, title: title, presentation: presentations[id] ?? .value, outcome: outcome)
    }

    /// The presentation of each built-in statistic.
    static let presentations: [String: StatisticPresentation] = Dictionary(
        BuiltInStatistics.modules.flatMap { $0.statistics }.map { ($0.id, $0.description.presentation) }, uniquingKeysWith: { first, _ in first })

    /// A calendar value (the daily activity) of `days`, each `(day, sessions, seconds)`.
    static func calendar(_ days: [(day: LocalDay, sessions: Int, seconds: Double)]) -> StatisticValue {
        .record(days.sorted { $0.day < $1.day }.map { StatisticField($0.day.description, tally($0.sessions, $0.seconds)) })
    }

    /// The report behind the golden files: every shape of value, a failure, a cancellation, no value.
    static let fixed = Report(asOf: asOf, timeZone: berlin, entries: [
        finished("session_count", "Sessions", .quantity(412, .count)),
        finished("total_time", "Total time", .quantity(372_000, .seconds)),
        finished("average_session_time", "Average session time", .quantity(902.5, .seconds),
                 notes: ["2 sessions over 4 h were capped at 4 h"]),
        entry("median_session_time", "Median session time", .failed(message: "could not read \"sessions\", the store is locked")),
        entry("longest_session", "Longest session", .cancelled),
        finished("active_days", "Active days", .quantity(120, .days)),
        finished("current_streak", "Current streak", .quantity(4, .days), notes: ["2024-03-12 through 2024-03-15"]),
        finished("longest_streak", "Longest streak", .quantity(21, .days)),
        finished("best_streaks", "Best streaks", .list([
            streak("2023-10-02", "2023-10-22"), streak("2024-01-08", "2024-01-19"), streak("2024-02-20", "2024-03-01"),
        ])),
        finished("weekly_streak", "Weekly streak", .quantity(6, .weeks)),
        finished("days_since_last_session", "Days since last session", .none, name: "days_since_last_yoga"),
        finished("consistency", "Consistency", .quantity(86.6, .percent)),
        finished("sessions_by_weekday", "Sessions by weekday", .record([
            StatisticField("monday", tally(3, 5_400)), StatisticField("tuesday", tally(2, 1_800)),
            StatisticField("wednesday", tally(0, 0)), StatisticField("thursday", tally(1, 600)),
            StatisticField("friday", tally(4, 7_230)), StatisticField("saturday", tally(1, 3_600)),
            StatisticField("sunday", tally(2, 2_700.5)),
        ])),
        finished("sessions_by_hour", "Sessions by hour", .record((0..<24).map { hour in
            StatisticField(String(hour), hour == 7 ? tally(9, 8_100) : hour == 18 ? tally(4, 13_230.5) : tally(0, 0))
        })),
        finished("by_kind", "By kind and source", .record([
            StatisticField("kind", .record([StatisticField("meditation", tally(9, 9_000)), StatisticField("yoga", tally(4, 12_330.5))])),
            StatisticField("source", .record([StatisticField("insight_timer", tally(10, 15_000)), StatisticField("medito", tally(3, 6_330.5))])),
        ])),
        finished("totals_by_period", "Totals by period", .record([
            StatisticField("2024-01", tally(5, 9_000)), StatisticField("2024-02", tally(0, 0)), StatisticField("2024-03", tally(8, 12_330.5)),
        ])),
    ])

    // MARK: A year of practice

    /// One generated session.
    struct Session {
        var day: LocalDay
        var hour: Int
        var seconds: Double
        var kind: String
        var source: String
    }

    /// A deterministic history through `asOf`: a morning meditation habit that forms, lapses in summer and
    /// comes back, longer yoga at weekends, evening sittings now and then.
    static func generatedSessions(days: Int = 420) -> [Session] {
        var random = LinearCongruential(seed: 2024)
        let today = day("2024-03-15")
        var sessions: [Session] = []
        for offset in stride(from: days - 1, through: 0, by: -1) {
            let date = today.adding(days: -offset)
            // The habit's strength over the year: strong in winter and spring, a lapse in late summer.
            let monthStrength: [Double] = [0.7, 0.74, 0.8, 0.62, 0.55, 0.42, 0.24, 0.12, 0.3, 0.58, 0.66, 0.6]
            var chance = monthStrength[date.month - 1]
            if offset < 12 { chance = 1 }   // the current streak
            if (200...206).contains(offset) { chance = 1 }   // a long autumn run
            if (130...150).contains(offset) { chance = 0.97 }   // a good winter
            if (60...70).contains(offset) { chance = 0.05 }   // a cold in January
            let weekend = date.weekday == .saturday || date.weekday == .sunday
            if random.next() < chance {
                let minutes = 8 + random.next() * 22 + (random.next() < 0.1 ? 25 : 0)
                sessions.append(Session(day: date, hour: 6 + Int(random.next() * 2.2), seconds: (minutes * 60).rounded(),
                                        kind: "meditation", source: random.next() < 0.7 ? "insight_timer" : "medito"))
            }
            if weekend ? random.next() < 0.5 * (0.4 + chance) : random.next() < 0.08 {
                let minutes = 35 + random.next() * 40
                sessions.append(Session(day: date, hour: weekend ? 9 + Int(random.next() * 3) : 18 + Int(random.next() * 2),
                                        seconds: (minutes * 60).rounded(), kind: "yoga", source: "apple_health"))
            }
            if random.next() < 0.08 {
                sessions.append(Session(day: date, hour: 21 + Int(random.next() * 2), seconds: (600 + random.next() * 600).rounded(),
                                        kind: "meditation", source: "insight_timer"))
            }
        }
        return sessions
    }

    /// A full report from ``generatedSessions(days:)``, its statistics computed the simple way.
    static func year() -> Report {
        let sessions = generatedSessions()
        let today = day("2024-03-15")
        let total = sessions.map(\.seconds).reduce(0, +)
        let durations = sessions.map(\.seconds).sorted()
        let activeDays = Set(sessions.map(\.day))

        var runs: [(start: LocalDay, end: LocalDay)] = []
        for active in activeDays.sorted() {
            if let last = runs.last, last.end.adding(days: 1) == active { runs[runs.count - 1].end = active }
            else { runs.append((active, active)) }
        }
        let length = { (run: (start: LocalDay, end: LocalDay)) in run.start.distance(to: run.end) + 1 }
        let best = runs.sorted { (length($0), $0.end) > (length($1), $1.end) }.prefix(4).sorted { $0.start < $1.start }
        let current = runs.last.map { $0.end >= today.adding(days: -1) ? length($0) : 0 } ?? 0

        func tallies(_ keys: [String], _ key: (Session) -> String) -> StatisticValue {
            .record(keys.map { name in
                let matching = sessions.filter { key($0) == name }
                return StatisticField(name, tally(matching.count, matching.map(\.seconds).reduce(0, +)))
            })
        }
        let months = Array(Set(sessions.map { String($0.day.description.prefix(7)) })).sorted()
        let activity = Dictionary(grouping: sessions, by: \.day).map { date, daySessions in
            (day: date, sessions: daySessions.count, seconds: daySessions.map(\.seconds).reduce(0, +))
        }
        let lastYear = activeDays.filter { $0 > today.adding(days: -30) }.count
        return Report(asOf: asOf, timeZone: berlin, entries: [
            finished("session_count", "Sessions", .quantity(Double(sessions.count), .count)),
            finished("total_time", "Total time", .quantity(total, .seconds)),
            finished("average_session_time", "Average session time", .quantity(total / Double(sessions.count), .seconds)),
            finished("median_session_time", "Median session time", .quantity(durations[durations.count / 2], .seconds)),
            finished("longest_session", "Longest session", .quantity(durations.last ?? 0, .seconds)),
            finished("active_days", "Active days", .quantity(Double(activeDays.count), .days)),
            finished("current_streak", "Current streak", .quantity(Double(current), .days)),
            finished("longest_streak", "Longest streak", .quantity(Double(runs.map(length).max() ?? 0), .days)),
            finished("best_streaks", "Best streaks", .list(best.map { streak($0.start.description, $0.end.description) })),
            finished("weekly_streak", "Weekly streak", .quantity(9, .weeks)),
            finished("days_since_last_session", "Days since last session", .quantity(0, .days)),
            finished("consistency", "Consistency", .quantity(Double(lastYear) / 30 * 100, .percent),
                     notes: ["Medito's score over the last 30 days"]),
            finished("sessions_by_weekday", "Sessions by weekday", tallies(Weekday.allCases.map(\.rawValue)) { $0.day.weekday.rawValue }),
            finished("sessions_by_hour", "Sessions by hour", tallies((0..<24).map(String.init)) { String($0.hour) }),
            finished("daily_activity", "Practice calendar", calendar(activity.filter { $0.day > today.adding(days: -371) })),
            finished("by_kind", "By kind and source", .record([
                StatisticField("kind", tallies(["meditation", "yoga"]) { $0.kind }),
                StatisticField("source", tallies(["apple_health", "insight_timer", "medito"]) { $0.source }),
            ])),
            finished("totals_by_period", "Totals by period", tallies(months) { String($0.day.description.prefix(7)) }),
        ])
    }
}

/// A tiny seeded generator, so the sample history is the same on every machine.
struct LinearCongruential {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in 0..<1.
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}
