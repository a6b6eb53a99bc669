import StillpointStatistics
import Testing
import TrendStatistics

@Suite("TrendStatisticsModule")
struct TrendStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(TrendStatisticsModule.name == "TrendStatistics")
    }

    @Test func listsItsStatistics() {
        #expect(TrendStatisticsModule.statistics.map(\.id) == ["totals_by_period"])
    }

    /// Examples are documentation and tests: at least two each, one of them on an empty log.
    @Test func everyStatisticHasExamplesWithAnEmptyLog() {
        for statistic in TrendStatisticsModule.statistics {
            #expect(statistic.description.examples.count >= 2, "\(statistic.id)")
            #expect(statistic.description.examples.contains { $0.sessions.isEmpty }, "\(statistic.id)")
            #expect(!statistic.description.summary.isEmpty, "\(statistic.id)")
        }
    }

    @Test func everyExampleHolds() async throws {
        for statistic in TrendStatisticsModule.statistics {
            for example in statistic.description.examples {
                let result = try await example.run(statistic)
                #expect(result.value == example.expected, "\(statistic.id): \(example.summary)")
            }
        }
    }
}
