import StillpointStatistics
import Testing
import RhythmStatistics

@Suite("RhythmStatisticsModule")
struct RhythmStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(RhythmStatisticsModule.name == "RhythmStatistics")
    }

    @Test func listsItsStatistics() {
        #expect(RhythmStatisticsModule.statistics.map(\.id) == ["sessions_by_weekday", "sessions_by_hour"])
    }

    /// Examples are documentation and tests: at least two each, one of them on an empty log.
    @Test func everyStatisticHasExamplesWithAnEmptyLog() {
        for statistic in RhythmStatisticsModule.statistics {
            #expect(statistic.description.examples.count >= 2, "\(statistic.id)")
            #expect(statistic.description.examples.contains { $0.sessions.isEmpty }, "\(statistic.id)")
            #expect(!statistic.description.summary.isEmpty, "\(statistic.id)")
        }
    }

    @Test func everyExampleHolds() async throws {
        for statistic in RhythmStatisticsModule.statistics {
            for example in statistic.description.examples {
                let result = try await example.run(statistic)
                #expect(result.value == example.expected, "\(statistic.id): \(example.summary)")
            }
        }
    }
}
