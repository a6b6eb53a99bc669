import StillpointStatistics

/// The statistics of the `TrendStatistics` module: how practice changes over months, quarters and years.
public enum TrendStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = [TotalsByPeriod()]
}
