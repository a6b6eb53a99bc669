import Foundation
import PracticeLog
import Testing
@testable import ConsistencyStatistics

private let today = LocalDay(year: 2024, month: 3, day: 15)!

/// The days at the given offsets from `today` (0 is today, -1 yesterday).
private func active(_ offsets: [Int]) -> [LocalDay] {
    offsets.map { today.adding(days: $0) }
}

/// The consistency table of docs/statistics.md: active days as offsets from today, and the score.
let meditoConsistencyTable: [(String, [Int], Int)] = [
    ("none", [], 0),
    ("0", [0], 100),
    ("0, -2, -3, -5, -6, -8, -9", [0, -2, -3, -5, -6, -8, -9], 70),
    ("every day from 0 to -29", Array(-29...0), 100),
    ("-40", [-40], 1),
    ("0 and every day from -11 to -40", [0] + Array(-40 ... -11), 48),
    ("every second day from 0 to -44", Array(stride(from: -44, through: 0, by: 2)), 72),
    ("-200", [-200], 0),
]

@Suite("ConsistencyScore")
struct ConsistencyScoreTests {
    /// The consistency table of docs/statistics.md.
    @Test(arguments: meditoConsistencyTable)
    func meditoTable(name: String, offsets: [Int], expected: Int) {
        #expect(ConsistencyScore(activeDays: active(offsets), today: today).percent == expected, "\(name)")
    }

    @Test func shortHistoryIsTheShareOfActiveDays() {
        // n = 8, one active day: 12.5 rounds away from zero, as Dart's round() does.
        #expect(ConsistencyScore(activeDays: active([-7]), today: today).percent == 13)
        // n = 2: yesterday active, today not yet.
        #expect(ConsistencyScore(activeDays: active([-1]), today: today).percent == 50)
        // n = 29 is still a plain share: 28 of 29 days.
        #expect(ConsistencyScore(activeDays: active(Array(-28 ... -1)), today: today).percent == 97)
    }

    @Test func thirtyDaysSwitchesToTheMovingAverage() {
        // n = 30, the first 29 days all active, today not: ema = 0.1 * 0.5 + 0.9 * 1 (yesterday was active).
        // A plain share would give round(100 * 29 / 30) = 97.
        #expect(ConsistencyScore(activeDays: active(Array(-29 ... -1)), today: today).percent == 95)
        // Without yesterday, today is next to no active day: ema = 0.9 * 28/29 = 0.869.
        #expect(ConsistencyScore(activeDays: active(Array(-29 ... -2)), today: today).percent == 87)
    }

    @Test func daysAfterTodayAreIgnored() {
        // Were 03-16 counted, today (03-15) would get v = 0.5 as the day before an active day: 6, not 1.
        #expect(ConsistencyScore(activeDays: active([-40, 1]), today: today).percent == 1)
        #expect(ConsistencyScore(activeDays: active([1, 2]), today: today).percent == 0)
    }

    @Test func orderAndRepeatsDoNotMatter() {
        let offsets = [0, -2, -3, -5, -6, -8, -9]
        #expect(ConsistencyScore(activeDays: active(offsets.reversed() + offsets), today: today).percent == 70)
    }

    @Test func inactiveDayBeforeAnActiveOneCountsHalf() {
        // n = 41: the first 29 days (-40...-12) hold only -40; then -2 gets 0.5, -1 gets 1, 0 gets 0.5.
        var ema = 1.0 / 29
        for value in [0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5, 1, 0.5] {
            ema = 0.1 * value + 0.9 * ema
        }
        #expect(ConsistencyScore(activeDays: active([-40, -1]), today: today).percent == Int((100 * ema).rounded()))
        #expect(Int((100 * ema).rounded()) == 19)
    }
}
