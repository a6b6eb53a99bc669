import StillpointStatistics
import Testing
import SessionTimeStatistics

@Suite("SessionTimeStatisticsModule")
struct SessionTimeStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(SessionTimeStatisticsModule.name == "SessionTimeStatistics")
    }

    @Test func listsItsStatistics() {
        #expect(SessionTimeStatisticsModule.statistics.map(\.id) == ["average_session_time", "median_session_time", "longest_session"])
    }

    /// Examples are documentation and tests: at least two each, one of them on an empty log.
    @Test func everyStatisticHasExamplesWithAnEmptyLog() {
        for statistic in SessionTimeStatisticsModule.statistics {
            #expect(statistic.description.examples.count >= 2, "\(statistic.id)")
            #expect(statistic.description.examples.contains { $0.sessions.isEmpty }, "\(statistic.id)")
            #expect(!statistic.description.summary.isEmpty, "\(statistic.id)")
        }
    }

    @Test func everyExampleHolds() async throws {
        for statistic in SessionTimeStatisticsModule.statistics {
            for example in statistic.description.examples {
                let result = try await example.run(statistic)
                #expect(result.value == example.expected, "\(statistic.id): \(example.summary)")
            }
        }
    }
}
