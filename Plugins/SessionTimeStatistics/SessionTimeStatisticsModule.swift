import StillpointStatistics

/// The statistics of the `SessionTimeStatistics` module: how long sessions last.
public enum SessionTimeStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = [AverageSessionTime(), MedianSessionTime(), LongestSession()]
}
