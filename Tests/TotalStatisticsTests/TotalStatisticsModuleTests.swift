import StillpointTestSupport
import StillpointStatistics
import Testing
import TotalStatistics

@Suite("TotalStatisticsModule")
struct TotalStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(TotalStatisticsModule.name == "TotalStatistics")
    }

    @Test func listsItsStatistics() {
        #expect(moduleListingProblems(TotalStatisticsModule.self) == [])
    }
}
