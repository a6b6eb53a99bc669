import StillpointStatistics

/// The statistics of the `ConsistencyStatistics` module.
public enum ConsistencyStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = [Consistency()]
}
