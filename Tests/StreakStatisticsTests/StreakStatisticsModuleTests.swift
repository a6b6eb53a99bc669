import StillpointStatistics
import StreakStatistics
import StillpointTestSupport
import Testing

@Suite("StreakStatisticsModule")
struct StreakStatisticsModuleTests {
    static let ids = StreakStatisticsModule.statistics.map(\.id)

    @Test func moduleIsNamedAfterItsFolder() {
        #expect(StreakStatisticsModule.name == "StreakStatistics")
    }

    @Test func itListsItsStatistics() {
        #expect(moduleListingProblems(StreakStatisticsModule.self) == [])
    }

    static func statistic(_ id: String) throws -> any Statistic {
        try #require(StreakStatisticsModule.statistics.first { $0.id == id })
    }

    @Test(arguments: ids)
    func examplesAreReproducibleAndCoverAnEmptyLog(id: String) throws {
        let examples = try Self.statistic(id).description.examples
        #expect(examples.count >= 2)
        #expect(examples.contains { $0.sessions.isEmpty })
        for example in examples {
            #expect(example.parameters["as_of"] != nil, "\(example.summary)")
            #expect(example.parameters["time_zone"] != nil, "\(example.summary)")
        }
    }

    @Test(arguments: ids)
    func parametersAreDescribedOnce(id: String) throws {
        let description = try Self.statistic(id).description
        let names = description.parameters.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Set(names).isSuperset(of: ["kinds", "minimum_duration", "time_zone", "day_starts_at", "as_of"]))
        // Every example uses only described parameters, so it would pass a manifest's checks.
        for example in description.examples {
            #expect(Set(example.parameters.keys).isSubset(of: names), "\(example.summary)")
        }
    }

    @Test(arguments: ["current_streak", "longest_streak", "best_streaks", "weekly_streak"])
    func streaksTakeRestDays(id: String) throws {
        #expect(try Self.statistic(id).description.parameters.map(\.name).contains("excluded_weekdays"))
    }

    @Test func onlyTheWeeklyStreakTakesAWeekStart() throws {
        for id in Self.ids {
            let names = try Self.statistic(id).description.parameters.map(\.name)
            #expect(names.contains("week_starts_on") == (id == "weekly_streak"), "\(id)")
        }
    }

    @Test func bestStreaksDescribesItsCount() throws {
        let count = try #require(try Self.statistic("best_streaks").description.parameters.first { $0.name == "count" })
        #expect(count.defaultValue == "3")
        #expect(BestStreaks.defaultCount == 3)
    }
}
