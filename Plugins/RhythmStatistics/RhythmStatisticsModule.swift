import StillpointStatistics

/// The statistics of the `RhythmStatistics` module.
public enum RhythmStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = []
}
