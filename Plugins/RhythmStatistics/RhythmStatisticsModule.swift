import StillpointStatistics

/// The statistics of the `RhythmStatistics` module: when in the week and the day people practise, and on which days.
public enum RhythmStatisticsModule: StatisticModule {
    public static let statistics: [any Statistic] = [SessionsByWeekday(), SessionsByHour(), DailyActivity()]
}
