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
        #expect(TrendStatisticsModule.statistics.map(\.id) == ["totals_by_period"])
    }
}
