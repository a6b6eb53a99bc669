import ConsistencyStatistics
import RhythmStatistics
import SessionTimeStatistics
import StillpointStatistics
import StreakStatistics
import TotalStatistics
import TrendStatistics

/// The statistic modules that ship with Stillpoint: the one place that imports them all.
///
/// ```swift
/// let catalog = try BuiltInStatistics.catalog()
/// ```
public enum BuiltInStatistics {
    /// Every module under `Plugins/`, in the order `stillpoint statistics` lists them.
    public static var modules: [any StatisticModule.Type] {[
        SessionTimeStatisticsModule.self,
        TotalStatisticsModule.self,
        StreakStatisticsModule.self,
        RhythmStatisticsModule.self,
        TrendStatisticsModule.self,
        ConsistencyStatisticsModule.self,
    ]}

    /// A catalog of every built-in statistic.
    public static func catalog() throws -> StatisticCatalog {
        try StatisticCatalog(modules: modules)
    }
}
