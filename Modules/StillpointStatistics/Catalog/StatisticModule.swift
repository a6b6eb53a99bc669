/// A module of statistics under `Plugins/`: its name (the folder's) and the statistics it provides.
///
/// ```swift
/// public enum TotalStatisticsModule: StatisticModule {
///     public static let statistics: [any Statistic] = [SessionCount(), TotalTime(), ActiveDays(), ByKind()]
/// }
/// ```
public protocol StatisticModule {
    /// The module's name, which is also its folder under `Plugins/`. Defaults to the type's name without
    /// its `Module` suffix (a type named like its module would shadow it).
    static var name: String { get }
    static var statistics: [any Statistic] { get }
}

extension StatisticModule {
    public static var name: String {
        let typeName = String(describing: Self.self)
        return typeName.hasSuffix("Module") ? String(typeName.dropLast("Module".count)) : typeName
    }
}
