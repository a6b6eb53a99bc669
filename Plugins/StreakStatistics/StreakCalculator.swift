import Foundation
import PracticeLog

/// Current, longest, best and weekly streaks over the active days of a practice log.
///
/// Give it the days that have at least one qualifying session; days after `today` are ignored.
/// Runs are computed once, in O(number of active days) when the days come sorted.
///
/// Rest days (`excludedWeekdays`) follow one rule: an excluded weekday without a session counts
/// toward a run only when it lies between two active days of that run. So a rest day
///  - bridges the gap it sits in (Friday, rest Saturday, rest Sunday, Monday is a run of 4);
///  - never starts or ends a run: rest days before the first session or after the last one are
///    not counted until a session follows them (on that Sunday the run is Friday alone, 1 day;
///    it becomes 4 days once Monday has a session);
///  - keeps the current streak alive: with Sunday excluded, a run ending Saturday is still
///    current on Sunday and on Monday before Monday's session, with its length unchanged.
/// A session on an excluded weekday makes it an ordinary active day, which may start a run.
///
/// ```swift
/// let streaks = StreakCalculator(activeDays: days, today: LocalDay("2024-03-15")!,
///                                excludedWeekdays: [.sunday])
/// streaks.currentStreak                     // 5
/// streaks.longestStreak?.length             // 12
/// streaks.bestStreaks(count: 3)             // oldest first
/// streaks.weeklyStreak(weekStartsOn: .monday)
/// ```
public struct StreakCalculator: Sendable {
    /// The day the report is made; later days are ignored.
    public let today: LocalDay
    /// The rest days of the week.
    public let excludedWeekdays: Set<Weekday>

    /// Active days up to `today`, sorted, without duplicates.
    private let days: [LocalDay]
    /// Bit `isoNumber - 1` set for each excluded weekday.
    private let restMask: Int
    /// Every run, oldest first.
    private let runs: [Streak]

    /// Computes the runs of `activeDays` up to `today`; the days may come in any order, with repeats.
    public init(activeDays: some Sequence<LocalDay>, today: LocalDay, excludedWeekdays: Set<Weekday> = []) {
        self.today = today
        self.excludedWeekdays = excludedWeekdays
        var candidates = activeDays.filter { $0 <= today }
        // Days usually come sorted from the store; sort only when they do not, to stay linear.
        if zip(candidates, candidates.dropFirst()).contains(where: { $0 > $1 }) {
            candidates.sort()
        }
        var days: [LocalDay] = []
        days.reserveCapacity(candidates.count)
        for day in candidates where day != days.last {
            days.append(day)
        }
        self.days = days

        let restMask = excludedWeekdays.reduce(0) { $0 | 1 << ($1.isoNumber - 1) }
        self.restMask = restMask
        var runs: [Streak] = []
        if var runStart = days.first, let last = days.last {
            for (previous, day) in zip(days, days.dropFirst())
            where !Self.onlyRestDays(between: previous, and: day, restMask) {
                runs.append(Streak(start: runStart, end: previous))
                runStart = day
            }
            runs.append(Streak(start: runStart, end: last))
        }
        self.runs = runs
    }

    /// The run that is still alive today: it ends today, or before today with only rest days
    /// between its end and today (yesterday when there are no rest days); `nil` otherwise.
    ///
    /// ```swift
    /// streaks.currentRun?.start   // the day the current streak began
    /// ```
    public var currentRun: Streak? {
        guard let last = runs.last,
              Self.onlyRestDays(between: last.end, and: today, restMask)
        else { return nil }
        return last
    }

    /// The length of `currentRun`, 0 when there is none.
    ///
    /// ```swift
    /// streaks.currentStreak   // 5
    /// ```
    public var currentStreak: Int {
        currentRun?.length ?? 0
    }

    /// The longest run; of runs of equal length, the most recent; `nil` without active days.
    ///
    /// ```swift
    /// streaks.longestStreak?.length   // 12
    /// ```
    public var longestStreak: Streak? {
        var longest: Streak?
        for run in runs where run.length >= (longest?.length ?? 0) {
            longest = run
        }
        return longest
    }

    /// The `count` longest runs (of equal lengths, the newer first), listed oldest to newest.
    ///
    /// ```swift
    /// streaks.bestStreaks(count: 3).map(\.length)   // [7, 12, 9]
    /// ```
    public func bestStreaks(count: Int) -> [Streak] {
        guard count > 0 else { return [] }
        let ranked = runs.sorted { lhs, rhs in
            lhs.length != rhs.length ? lhs.length > rhs.length : lhs.end > rhs.end
        }
        return ranked.prefix(count).sorted { $0.start < $1.start }
    }

    /// The number of consecutive calendar weeks, up to this one, with at least one active day.
    ///
    /// The current week does not break the streak while it is in progress: without a session
    /// yet this week, the count runs back from last week. Rest days play no part here.
    ///
    /// ```swift
    /// streaks.weeklyStreak(weekStartsOn: .sunday)   // 6
    /// ```
    public func weeklyStreak(weekStartsOn firstWeekday: Weekday) -> Int {
        let thisWeek = today.startOfWeek(startingOn: firstWeekday)
        guard let latest = days.last?.startOfWeek(startingOn: firstWeekday),
              latest == thisWeek || latest == thisWeek.adding(days: -7)
        else { return 0 }
        var count = 0
        var expected = latest
        for day in days.reversed() {
            let week = day.startOfWeek(startingOn: firstWeekday)
            if week == expected {
                count += 1
                expected = expected.adding(days: -7)
            } else if week < expected {
                break
            }
        }
        return count
    }

    // MARK: Helpers

    /// Whether every day strictly between `earlier` and `later` is a rest day (true when none lie between).
    private static func onlyRestDays(between earlier: LocalDay, and later: LocalDay, _ restMask: Int) -> Bool {
        let gap = later.dayNumber - earlier.dayNumber - 1
        if gap <= 0 { return true }
        // A gap of a week or more holds every weekday: only a week of rest days can bridge it.
        if gap >= 7 { return restMask == 0b111_1111 }
        return (1...gap).allSatisfy { restMask & (1 << (earlier.adding(days: $0).weekday.isoNumber - 1)) != 0 }
    }
}
