import StillpointStatistics

/// The statistics of the `StreakStatistics` module.
public enum StreakStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = [
        CurrentStreak(), LongestStreak(), BestStreaks(), WeeklyStreak(), DaysSinceLastSession(),
    ]
}
