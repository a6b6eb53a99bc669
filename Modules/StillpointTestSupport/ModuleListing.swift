import Foundation
import StillpointStatistics

/// What is wrong with how a module lists its statistics, checked from the module itself so that no test
/// repeats its list of ids: none at all, an id twice, an id that is not `snake_case`, a statistic without
/// a name, a summary or an example.
///
/// ```swift
/// #expect(moduleListingProblems(RhythmStatisticsModule.self).isEmpty)
/// ```
public func moduleListingProblems(_ module: any StatisticModule.Type) -> [String] {
    let statistics = module.statistics
    guard !statistics.isEmpty else { return ["\(module.name) lists no statistic"] }
    var problems: [String] = []
    var seen: Set<String> = []
    for statistic in statistics {
        let id = statistic.id
        if !seen.insert(id).inserted { problems.append("\(id) is listed twice") }
        if id.range(of: "^[a-z][a-z0-9]*(_[a-z0-9]+)*$", options: .regularExpression) == nil {
            problems.append("\(id) is not snake_case")
        }
        let description = statistic.description
        if description.name.isEmpty { problems.append("\(id) has no name") }
        if description.summary.isEmpty { problems.append("\(id) has no summary") }
        if description.examples.isEmpty { problems.append("\(id) has no example") }
    }
    return problems
}
