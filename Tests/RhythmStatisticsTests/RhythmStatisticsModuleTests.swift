import StillpointTestSupport
import StillpointStatistics
import Testing
import RhythmStatistics

@Suite("RhythmStatisticsModule")
struct RhythmStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(RhythmStatisticsModule.name == "RhythmStatistics")
    }

    @Test func listsItsStatistics() {
        #expect(moduleListingProblems(RhythmStatisticsModule.self) == [])
    }
}
