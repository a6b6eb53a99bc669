import StillpointStatistics

/// The statistics of the `TotalStatistics` module.
public enum TotalStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = []
}
