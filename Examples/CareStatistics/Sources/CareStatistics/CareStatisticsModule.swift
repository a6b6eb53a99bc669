import StillpointStatistics

/// What a care team watches in a practice log: the longest break, weekly practice and its trend, and the
/// practice of the last four weeks.
///
/// ```yaml
/// modules: [TotalStatistics, CareStatistics]
/// statistics: [total_time, longest_gap, weekly_time_trend, recent_time]
/// ```
public enum CareStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = [LongestGap(), WeeklyTime(), WeeklyTimeTrend(), RecentTime()]
}
