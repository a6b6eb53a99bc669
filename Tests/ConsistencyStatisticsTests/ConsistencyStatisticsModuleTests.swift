import ConsistencyStatistics
import StillpointStatistics
import StillpointTestSupport
import Testing

@Suite("ConsistencyStatisticsModule")
struct ConsistencyStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(ConsistencyStatisticsModule.name == "ConsistencyStatistics")
    }

    @Test func itListsConsistency() {
        #expect(moduleListingProblems(ConsistencyStatisticsModule.self) == [])
    }

    @Test func examplesAreReproducibleAndCoverAnEmptyLog() {
        let description = Consistency().description
        #expect(description.examples.count >= 2)
        #expect(description.examples.contains { $0.sessions.isEmpty })
        let names = description.parameters.map(\.name)
        #expect(Set(names) == ["kinds", "minimum_duration", "time_zone", "day_starts_at", "as_of"])
        for example in description.examples {
            #expect(example.parameters["as_of"] != nil && example.parameters["time_zone"] != nil, "\(example.summary)")
            #expect(Set(example.parameters.keys).isSubset(of: names), "\(example.summary)")
        }
    }
}
