import StillpointStatistics

/// The statistics of the `TotalStatistics` module: how much practice in all.
public enum TotalStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = [SessionCount(), TotalTime(), ActiveDays(), ByKind(), ByImport()]
}
