import Foundation
import PracticeLog

/// Medito's consistency score: how regularly someone practised since their first session, in percent.
///
/// With `n` the days from the first active day through `today`:
///  - no active day: 0; `n` = 1: 100 when today is active, else 0;
///  - `n` < 30: the share of active days, `round(100 * active / n)`;
///  - otherwise an exponential moving average: it starts at the share of active days among the
///    first 29, then each later day through today gives `ema = 0.1 * v + 0.9 * ema`, where `v` is
///    1 on an active day, 0.5 on an inactive day next to an active one (the day after only when it
///    is not after today), else 0. The score is `round(100 * ema)`.
/// Active days after `today` are ignored. Halves round away from zero, as Dart's `round()` does.
///
/// ```swift
/// let today = LocalDay("2024-03-15")!
/// ConsistencyScore(activeDays: [today], today: today).percent                    // 100
/// ConsistencyScore(activeDays: [today.adding(days: -40)], today: today).percent   // 1
/// ```
public struct ConsistencyScore: Sendable, Hashable {
    /// The score, 0 through 100.
    public let percent: Int

    /// Scores `activeDays` (in any order, repeats allowed) as of `today`.
    public init(activeDays: some Sequence<LocalDay>, today: LocalDay) {
        let active = Set(activeDays.filter { $0 <= today })
        guard let first = active.min() else {
            percent = 0
            return
        }
        let dayCount = first.distance(to: today) + 1
        if dayCount == 1 {
            percent = active.contains(today) ? 100 : 0
            return
        }
        if dayCount < 30 {
            percent = Int((100 * Double(active.count) / Double(dayCount)).rounded())
            return
        }
        let firstWindow = first..<first.adding(days: 29)
        var ema = Double(active.filter { firstWindow.contains($0) }.count) / 29
        for day in first.adding(days: 29)...today {
            let value: Double
            if active.contains(day) {
                value = 1
            } else if active.contains(day.adding(days: -1))
                        || (day < today && active.contains(day.adding(days: 1))) {
                value = 0.5
            } else {
                value = 0
            }
            ema = 0.1 * value + 0.9 * ema
        }
        percent = Int((100 * ema).rounded())  // swiftlint:disable:this trapping_conversion: an average of values in 0...1
    }
}
