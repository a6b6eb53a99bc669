import StillpointStatistics

/// The statistics of the `SessionTimeStatistics` module.
public enum SessionTimeStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = []
}
