import StillpointStatistics

/// The statistics of the `TrendStatistics` module.
public enum TrendStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = []
}
