import PracticeLog

/// The period `totals_by_period` groups sessions by, and how a period is named: `2024-03`, `2024-Q1`, `2024`.
///
/// ```swift
/// TrendPeriod.quarter.key(of: LocalDay("2024-05-20")!)   // "2024-Q2"
/// ```
public enum TrendPeriod: String, Sendable, Hashable, CaseIterable {
    case month, quarter, year

    /// The first day of the period that holds `day`.
    public func start(of day: LocalDay) -> LocalDay {
        switch self {
        case .month: day.startOfMonth
        case .quarter: day.startOfQuarter
        case .year: day.startOfYear
        }
    }

    /// The first day of the period after the one that starts on `start`.
    public func next(after start: LocalDay) -> LocalDay {
        // Every period is at most 366 days long, so a day 31 / 92 / 366 days on lands in the next one.
        switch self {
        case .month: start.adding(days: 31).startOfMonth
        case .quarter: start.adding(days: 92).startOfQuarter
        case .year: start.adding(days: 366).startOfYear
        }
    }

    /// The name of the period that holds `day`, in an order that sorts as text.
    public func key(of day: LocalDay) -> String {
        let year = String(day.year)
        switch self {
        case .month: return year + (day.month < 10 ? "-0" : "-") + String(day.month)
        case .quarter: return "\(year)-Q\(day.quarter)"
        case .year: return year
        }
    }
}
