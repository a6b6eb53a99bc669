import StillpointTestSupport
import StillpointStatistics
import Testing
import TrendStatistics

@Suite("TrendStatisticsModule")
struct TrendStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(TrendStatisticsModule.name == "TrendStatistics")
    }

    @Test func listsItsStatistics() {
        #expect(moduleListingProblems(TrendStatisticsModule.self) == [])
    }
}
