import Foundation
import PracticeLog
import Testing
@testable import StreakStatistics

private let hour: TimeInterval = 3600

private func day(_ text: String) throws -> LocalDay {
    try #require(LocalDay(text))
}

private func days(_ texts: [String]) throws -> [LocalDay] {
    try texts.map(day)
}

/// An instant written in ISO 8601 with its UTC offset, e.g. `2024-03-15T12:00:00Z`.
private func instant(_ iso: String) throws -> Date {
    try Date(iso, strategy: .iso8601)
}

private func zone(_ identifier: String) throws -> TimeZone {
    try #require(TimeZone(identifier: identifier))
}

/// A session of the "days before today" table: how many days before today it started, and how long it lasted.
struct TestSession: Sendable {
    var daysBeforeToday: Int
    var duration: TimeInterval
}

private let minimumDuration: TimeInterval = 60

/// A qualifying session (`daysBeforeToday` listed plainly in docs/statistics.md).
private func session(_ daysBeforeToday: Int) -> TestSession {
    TestSession(daysBeforeToday: daysBeforeToday, duration: 600)
}

/// A session shorter than `minimumDuration` (`*` in docs/statistics.md).
private func short(_ daysBeforeToday: Int) -> TestSession {
    TestSession(daysBeforeToday: daysBeforeToday, duration: 30)
}

/// The active days of `sessions`: the short ones dropped, as the report does before computing days.
private func activeDays(of sessions: [TestSession], today: LocalDay) -> [LocalDay] {
    sessions.filter { $0.duration >= minimumDuration }.map { today.adding(days: -$0.daysBeforeToday) }
}

@Suite("StreakCalculator")
struct StreakCalculatorTests {
    // MARK: Reference cases of docs/statistics.md

    /// Medito's rule, in UTC: `day = date(instant - offset)`, future days dropped.
    @Test(arguments: [
        ("no sessions", "2024-03-15T12:00:00Z", [String](), 0.0, 0),
        ("today only", "2024-03-15T12:00:00Z", ["2024-03-15T00:00:00Z"], 0, 1),
        ("yesterday only", "2024-03-15T12:00:00Z", ["2024-03-14T12:00:00Z"], 0, 1),
        ("five ending today", "2024-03-15T12:00:00Z",
         ["2024-03-15T00:00:00Z", "2024-03-14T00:00:00Z", "2024-03-13T00:00:00Z", "2024-03-12T00:00:00Z",
          "2024-03-11T00:00:00Z"], 0, 5),
        ("five ending yesterday", "2024-03-15T12:00:00Z",
         ["2024-03-14T12:00:00Z", "2024-03-13T12:00:00Z", "2024-03-12T12:00:00Z", "2024-03-11T12:00:00Z",
          "2024-03-10T12:00:00Z"], 0, 5),
        ("gap", "2024-03-15T12:00:00Z", ["2024-03-15T00:00:00Z", "2024-03-13T00:00:00Z"], 0, 1),
        ("future ignored", "2024-03-15T12:00:00Z", ["2024-03-15T00:00:00Z", "2024-03-16T00:00:00Z"], 0, 1),
        ("thirty days (leap year)", "2024-03-15T12:00:00Z",
         (0..<30).map { "\(LocalDay(dayNumber: 19797 - $0))T00:00:00Z" }, 0, 30),  // 19797 is 2024-03-15
        ("offset moves today back", "2024-03-15T01:00:00Z", ["2024-03-14T01:00:00Z"], 4, 1),
        ("offset, session after today", "2024-03-15T02:00:00Z", ["2024-03-15T05:00:00Z"], 4, 0),
    ])
    func meditoStreakTable(name: String, now: String, starts: [String], offsetHours: Double, expected: Int) throws {
        let boundary = DayBoundary(timeZone: try zone("UTC"), dayStartsAt: offsetHours * hour)
        let today = boundary.day(of: try instant(now))
        // No filtering on `now` here: dropping the days after today is the calculator's job.
        let active = try starts.map { boundary.day(of: try instant($0)) }
        let streaks = StreakCalculator(activeDays: active, today: today)
        #expect(streaks.currentStreak == expected, "\(name)")
    }

    @Test func meditoTableDaysAreThoseOfTheSpec() throws {
        let boundary = DayBoundary(timeZone: try zone("UTC"), dayStartsAt: 4 * hour)
        #expect(boundary.day(of: try instant("2024-03-15T01:00:00Z")) == (try day("2024-03-14")))
        #expect(boundary.day(of: try instant("2024-03-14T01:00:00Z")) == (try day("2024-03-13")))
        #expect(boundary.day(of: try instant("2024-03-15T02:00:00Z")) == (try day("2024-03-14")))
        #expect(boundary.day(of: try instant("2024-03-15T05:00:00Z")) == (try day("2024-03-15")))
    }

    /// "Sessions in days before today": numbers are days before today, `short` ones are below the minimum.
    @Test(arguments: [
        ("none", [TestSession](), 0, 0),
        ("0*, 1*, 2*", [short(0), short(1), short(2)], 0, 0),
        ("0, 1, 2", [session(0), session(1), session(2)], 3, 3),
        ("1, 2, 3", [session(1), session(2), session(3)], 3, 3),
        ("2, 3, 4", [session(2), session(3), session(4)], 0, 3),
        ("0, 1, 3, 4", [session(0), session(1), session(3), session(4)], 2, 2),
        ("three on day 0, two on day 1", [session(0), session(0), session(0), session(1), session(1)], 2, 2),
        ("0, 0*, 1, 2*, 3", [session(0), short(0), session(1), short(2), session(3)], 2, 2),
        ("0, 1, 2, 5 ... 9, 12, 13", ([0, 1, 2] + Array(5...9) + [12, 13]).map(session), 3, 5),
        ("0, 2, 4, 6", [session(0), session(2), session(4), session(6)], 1, 1),
        ("0 ... 99", (0...99).map(session), 100, 100),
    ])
    func sessionsInDaysBeforeToday(name: String, sessions: [TestSession], current: Int, longest: Int) throws {
        let today = try day("2024-03-15")
        let streaks = StreakCalculator(activeDays: activeDays(of: sessions, today: today), today: today)
        #expect(streaks.currentStreak == current, "\(name)")
        #expect((streaks.longestStreak?.length ?? 0) == longest, "\(name)")
    }

    @Test func springForwardInNewYorkIsOneDay() throws {
        let boundary = DayBoundary(timeZone: try zone("America/New_York"))
        let starts = try ["2023-03-12T01:30:00-05:00", "2023-03-12T03:30:00-04:00"].map(instant)
        let active = Set(starts.map { boundary.day(of: $0) })
        #expect(active.count == 1)
        let streaks = StreakCalculator(activeDays: active, today: try day("2023-03-12"))
        #expect(streaks.currentStreak == 1)
    }

    @Test func fallBackInNewYorkIsOneDay() throws {
        let boundary = DayBoundary(timeZone: try zone("America/New_York"))
        let starts = try ["2023-11-05T01:30:00-04:00", "2023-11-05T01:30:00-05:00", "2023-11-05T02:30:00-05:00"]
            .map(instant)
        let active = Set(starts.map { boundary.day(of: $0) })
        #expect(active.count == 1)
        let streaks = StreakCalculator(activeDays: active, today: boundary.day(of: starts[2]))
        #expect(streaks.currentStreak == 1)
        #expect(streaks.longestStreak?.length == 1)
    }

    @Test func newYorkAndLondonSessionsAreTwoDays() throws {
        // The same instant, 2023-06-02 03:00 UTC, lived in two zones: each session keeps its own date.
        let boundary = DayBoundary(timeZone: try zone("UTC"))
        let newYork = boundary.day(of: try instant("2023-06-01T23:00:00-04:00"), timeZone: try zone("America/New_York"))
        let london = boundary.day(of: try instant("2023-06-02T04:00:00+01:00"), timeZone: try zone("Europe/London"))
        #expect(Set([newYork, london]).count == 2)
        let streaks = StreakCalculator(activeDays: [newYork, london], today: try day("2023-06-02"))
        #expect(streaks.currentStreak == 2)
    }

    @Test func fallBackInBerlinKeepsTheStreak() throws {
        let boundary = DayBoundary(timeZone: try zone("Europe/Berlin"))
        let starts = try ["2025-10-25T20:00:00+02:00", "2025-10-26T20:00:00+01:00",
                          "2025-10-27T20:00:00+01:00", "2025-10-28T20:00:00+01:00"].map(instant)
        let today = boundary.day(of: try instant("2025-10-28T21:00:00+01:00"))
        #expect(today == (try day("2025-10-28")))
        let streaks = StreakCalculator(activeDays: starts.map { boundary.day(of: $0) }, today: today)
        #expect(streaks.currentStreak == 4)
        #expect(streaks.currentRun == Streak(start: try day("2025-10-25"), end: try day("2025-10-28")))
    }

    // MARK: Edges

    @Test func emptyInput() throws {
        let streaks = StreakCalculator(activeDays: [LocalDay](), today: try day("2024-03-15"))
        #expect(streaks.currentStreak == 0)
        #expect(streaks.currentRun == nil)
        #expect(streaks.longestStreak == nil)
        #expect(streaks.bestStreaks(count: 3).isEmpty)
        #expect(streaks.weeklyStreak(weekStartsOn: .monday) == 0)
    }

    @Test func onlyFutureDaysAreLikeNone() throws {
        let streaks = StreakCalculator(activeDays: try days(["2024-03-16", "2024-03-17"]), today: try day("2024-03-15"))
        #expect(streaks.currentStreak == 0)
        #expect(streaks.longestStreak == nil)
        #expect(streaks.weeklyStreak(weekStartsOn: .monday) == 0)
    }

    @Test func singleDay() throws {
        let today = try day("2024-03-15")
        let onlyToday = StreakCalculator(activeDays: [today], today: today)
        #expect(onlyToday.currentStreak == 1)
        #expect(onlyToday.longestStreak == Streak(start: today, end: today))
        #expect(onlyToday.bestStreaks(count: 2) == [Streak(start: today, end: today)])

        let twoDaysAgo = StreakCalculator(activeDays: [today.adding(days: -2)], today: today)
        #expect(twoDaysAgo.currentStreak == 0)
        #expect(twoDaysAgo.currentRun == nil)
        #expect(twoDaysAgo.longestStreak?.length == 1)
    }

    @Test func orderAndRepeatsOfTheInputDoNotMatter() throws {
        let today = try day("2024-03-15")
        let sorted = try days(["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-10", "2024-03-14", "2024-03-15"])
        let shuffled = [sorted[4], sorted[0], sorted[5], sorted[2], sorted[0], sorted[1], sorted[3], sorted[5]]
        let expected = StreakCalculator(activeDays: sorted, today: today)
        let actual = StreakCalculator(activeDays: shuffled, today: today)
        #expect(actual.currentRun == expected.currentRun)
        #expect(actual.currentStreak == 2)
        #expect(actual.longestStreak == Streak(start: sorted[0], end: sorted[2]))
        #expect(actual.bestStreaks(count: 10) == expected.bestStreaks(count: 10))
        #expect(actual.bestStreaks(count: 10).map(\.length) == [3, 1, 2])
    }

    @Test func futureDaysNeverExtendARun() throws {
        // 03-16 would join 03-14...03-15 into a run of 3 if it were not dropped.
        let streaks = StreakCalculator(
            activeDays: try days(["2024-03-10", "2024-03-11", "2024-03-14", "2024-03-15", "2024-03-16", "2024-03-17"]),
            today: try day("2024-03-15"))
        #expect(streaks.currentStreak == 2)
        #expect(streaks.longestStreak == Streak(start: try day("2024-03-14"), end: try day("2024-03-15")))
    }

    // MARK: Longest and best streaks

    /// Runs, oldest first: 3 days, 5, 2, 5, 3, then a gap up to today.
    private func ladder() throws -> (StreakCalculator, [Streak]) {
        let runs = [
            Streak(start: try day("2024-01-01"), end: try day("2024-01-03")),
            Streak(start: try day("2024-01-10"), end: try day("2024-01-14")),
            Streak(start: try day("2024-01-20"), end: try day("2024-01-21")),
            Streak(start: try day("2024-02-01"), end: try day("2024-02-05")),
            Streak(start: try day("2024-02-10"), end: try day("2024-02-12")),
        ]
        let active = runs.flatMap { Array($0.start...$0.end) }
        return (StreakCalculator(activeDays: active, today: try day("2024-03-15")), runs)
    }

    @Test func longestStreakPrefersTheMostRecentOnATie() throws {
        let (streaks, runs) = try ladder()
        #expect(streaks.longestStreak == runs[3])
        #expect(streaks.longestStreak?.length == 5)
        #expect(streaks.currentStreak == 0)
    }

    @Test(arguments: [
        (0, [Int]()), (1, [3]), (2, [1, 3]), (3, [1, 3, 4]), (4, [0, 1, 3, 4]), (5, [0, 1, 2, 3, 4]),
        (9, [0, 1, 2, 3, 4]), (-1, []),
    ])
    func bestStreaksAreTheLongestNewerFirstListedOldestFirst(count: Int, expectedIndices: [Int]) throws {
        let (streaks, runs) = try ladder()
        #expect(streaks.bestStreaks(count: count) == expectedIndices.map { runs[$0] })
    }

    // MARK: Weekly streak

    @Test func weeklyStreakCountsTheCurrentWeekWhenActive() throws {
        // Today Friday 2024-03-15; Monday weeks start 03-11, 03-04, 02-26, 02-19 (inactive), 02-12.
        let streaks = StreakCalculator(
            activeDays: try days(["2024-02-12", "2024-02-27", "2024-02-28", "2024-03-09", "2024-03-11", "2024-03-15"]),
            today: try day("2024-03-15"))
        #expect(streaks.weeklyStreak(weekStartsOn: .monday) == 3)
    }

    @Test func weekInProgressDoesNotBreakTheWeeklyStreak() throws {
        let active = try days(["2024-02-27", "2024-03-09"])
        // No session yet in the week of 03-11: the streak still counts the two weeks before.
        #expect(StreakCalculator(activeDays: active, today: try day("2024-03-15")).weeklyStreak(weekStartsOn: .monday) == 2)
        // A whole week without a session breaks it.
        #expect(StreakCalculator(activeDays: active, today: try day("2024-03-18")).weeklyStreak(weekStartsOn: .monday) == 0)
    }

    @Test func weeklyStreakDependsOnTheFirstDayOfTheWeek() throws {
        // Today Wednesday 2024-03-13; sessions on Monday 03-04 and Sunday 03-10.
        let streaks = StreakCalculator(activeDays: try days(["2024-03-04", "2024-03-10"]), today: try day("2024-03-13"))
        // Weeks from Monday: both in the week of 03-04; the week of 03-11 is in progress.
        #expect(streaks.weeklyStreak(weekStartsOn: .monday) == 1)
        // Weeks from Sunday: 03-10 opens this week, 03-04 belongs to the week of 03-03.
        #expect(streaks.weeklyStreak(weekStartsOn: .sunday) == 2)
    }

    @Test func weeklyStreakOverAYear() throws {
        // One session every Monday for 52 weeks, the last on 2024-03-11; days are ignored after today.
        let today = try day("2024-03-15")
        let mondays = (0..<52).map { today.adding(days: -4 - 7 * $0) } + [today.adding(days: 3)]
        let streaks = StreakCalculator(activeDays: mondays, today: today)
        #expect(streaks.weeklyStreak(weekStartsOn: .monday) == 52)
        #expect(streaks.weeklyStreak(weekStartsOn: .tuesday) == 52)
        #expect(streaks.currentStreak == 0)
    }

    // MARK: Rest days

    @Test func restDaysInsideARunCountTowardItsLength() throws {
        // Friday 03-08, rest weekend, Monday 03-11 and Tuesday 03-12: one run of 5 days.
        let streaks = StreakCalculator(
            activeDays: try days(["2024-03-08", "2024-03-11", "2024-03-12"]), today: try day("2024-03-12"),
            excludedWeekdays: [.saturday, .sunday])
        #expect(streaks.currentStreak == 5)
        #expect(streaks.currentRun == Streak(start: try day("2024-03-08"), end: try day("2024-03-12")))
        #expect(streaks.longestStreak?.length == 5)
    }

    @Test func restDaysDoNotStartARun() throws {
        // Sunday 03-10 is a rest day before the first session on Monday 03-11.
        let streaks = StreakCalculator(
            activeDays: try days(["2024-03-11", "2024-03-12"]), today: try day("2024-03-12"), excludedWeekdays: [.sunday])
        #expect(streaks.currentStreak == 2)
        #expect(streaks.currentRun?.start == (try day("2024-03-11")))
    }

    @Test func restDayTodayKeepsTheStreakAliveWithoutCountingIt() throws {
        // Today is Sunday 03-17, a rest day; Thursday to Saturday were active.
        let streaks = StreakCalculator(
            activeDays: try days(["2024-03-14", "2024-03-15", "2024-03-16"]), today: try day("2024-03-17"),
            excludedWeekdays: [.sunday])
        #expect(streaks.currentStreak == 3)
        #expect(streaks.currentRun?.end == (try day("2024-03-16")))
    }

    @Test func restWeekendThenTodayWithoutASessionYet() throws {
        let active = try days(["2024-03-13", "2024-03-14", "2024-03-15"])
        // Monday 03-18 before its session: the rest weekend keeps Wednesday to Friday alive.
        let monday = StreakCalculator(activeDays: active, today: try day("2024-03-18"), excludedWeekdays: [.saturday, .sunday])
        #expect(monday.currentStreak == 3)
        // Tuesday 03-19 with Monday missed: broken.
        let tuesday = StreakCalculator(activeDays: active, today: try day("2024-03-19"), excludedWeekdays: [.saturday, .sunday])
        #expect(tuesday.currentStreak == 0)
        // Without rest days the weekend itself breaks it.
        #expect(StreakCalculator(activeDays: active, today: try day("2024-03-18")).currentStreak == 0)
    }

    @Test func restDayDoesNotExcuseAMissedWorkingDay() throws {
        // Friday 03-15 active, Saturday 03-16 missed, Sunday rest, Monday 03-18 active.
        let streaks = StreakCalculator(
            activeDays: try days(["2024-03-14", "2024-03-15", "2024-03-18"]), today: try day("2024-03-18"),
            excludedWeekdays: [.sunday])
        #expect(streaks.currentStreak == 1)
        #expect(streaks.longestStreak == Streak(start: try day("2024-03-14"), end: try day("2024-03-15")))
    }

    @Test func sessionOnARestDayIsAnOrdinaryActiveDay() throws {
        // Sunday 03-10 is excluded but practised: it starts the run.
        let streaks = StreakCalculator(
            activeDays: try days(["2024-03-10", "2024-03-11"]), today: try day("2024-03-11"), excludedWeekdays: [.sunday])
        #expect(streaks.currentStreak == 2)
        let onlySunday = StreakCalculator(activeDays: [try day("2024-03-17")], today: try day("2024-03-17"),
                                          excludedWeekdays: [.sunday])
        #expect(onlySunday.currentStreak == 1)
    }

    @Test func restDaysBridgeRunsForLongestAndBest() throws {
        // Every weekday Monday to Friday for four weeks, weekends off: one run of 26 days (Mon 02-12 to Fri 03-08).
        let start = try day("2024-02-12")
        let weekdays = (0..<26).map { start.adding(days: $0) }.filter { $0.weekday < .saturday }
        let withRest = StreakCalculator(activeDays: weekdays, today: try day("2024-03-15"),
                                        excludedWeekdays: [.saturday, .sunday])
        #expect(withRest.longestStreak == Streak(start: start, end: try day("2024-03-08")))
        #expect(withRest.bestStreaks(count: 5).count == 1)
        #expect(withRest.currentStreak == 0)
        let withoutRest = StreakCalculator(activeDays: weekdays, today: try day("2024-03-15"))
        #expect(withoutRest.longestStreak == Streak(start: try day("2024-03-04"), end: try day("2024-03-08")))
        #expect(withoutRest.bestStreaks(count: 5).map(\.length) == [5, 5, 5, 5])
    }

    @Test func everyWeekdayExcludedBridgesAnyGap() throws {
        // A degenerate setting, but defined: with no working day left, nothing can break a run.
        let streaks = StreakCalculator(activeDays: try days(["2024-01-01", "2024-03-01"]), today: try day("2024-03-15"),
                                       excludedWeekdays: Set(Weekday.allCases))
        #expect(streaks.currentRun == Streak(start: try day("2024-01-01"), end: try day("2024-03-01")))
        #expect(streaks.currentStreak == 61)
    }

    // MARK: Scale

    @Test func tenYearsOfDays() throws {
        // Every day for ten years except each hundredth; the last run ends today.
        let today = try day("2024-03-15")
        let first = try day("2014-03-16")
        let active = (first...today).filter { first.distance(to: $0) % 100 != 99 }
        let streaks = StreakCalculator(activeDays: active, today: today)
        let totalDays = first.distance(to: today) + 1
        #expect(totalDays == 3653)
        #expect(streaks.currentStreak == totalDays % 100)
        #expect(streaks.longestStreak?.length == 99)
        #expect(streaks.bestStreaks(count: 1000).count == totalDays / 100 + 1)
        // 2014-03-16 is a Sunday, the last day of the Monday week of 2014-03-10: 523 weeks through 2024-03-11.
        #expect(streaks.weeklyStreak(weekStartsOn: .monday) == 523)
    }
}
