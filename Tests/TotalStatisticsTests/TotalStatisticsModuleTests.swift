import StillpointStatistics
import Testing
import TotalStatistics

@Suite("TotalStatisticsModule")
struct TotalStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(TotalStatisticsModule.name == "TotalStatistics")
    }

    @Test func listsItsStatistics() {
        #expect(TotalStatisticsModule.statistics.map(\.id) == ["session_count", "total_time", "active_days", "by_kind"])
    }

    /// Examples are documentation and tests: at least two each, one of them on an empty log.
    @Test func everyStatisticHasExamplesWithAnEmptyLog() {
        for statistic in TotalStatisticsModule.statistics {
            #expect(statistic.description.examples.count >= 2, "\(statistic.id)")
            #expect(statistic.description.examples.contains { $0.sessions.isEmpty }, "\(statistic.id)")
            #expect(!statistic.description.summary.isEmpty, "\(statistic.id)")
        }
    }

    @Test func everyExampleHolds() async throws {
        for statistic in TotalStatisticsModule.statistics {
            for example in statistic.description.examples {
                let result = try await example.run(statistic)
                #expect(result.value == example.expected, "\(statistic.id): \(example.summary)")
            }
        }
    }
}
