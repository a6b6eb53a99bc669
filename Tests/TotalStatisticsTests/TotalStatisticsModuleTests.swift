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
        #expect(TotalStatisticsModule.statistics.map(\.id) == ["session_count", "total_time", "active_days", "by_kind"])
    }
}
