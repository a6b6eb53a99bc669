import CareStatistics
import StillpointStatistics
import StillpointTestSupport
import Testing

/// The contract every statistic keeps, checked as Stillpoint checks its built-in modules.
@Suite("CareStatisticsModule")
struct CareStatisticsModuleTests {
    @Test func moduleIsNamedAfterItself() {
        #expect(CareStatisticsModule.name == "CareStatistics")
        #expect(CareStatisticsModule.statistics.map(\.id) == ["longest_gap", "weekly_time", "weekly_time_trend", "recent_time"])
    }

    @Test func everyStatisticKeepsTheContract() async {
        #expect(await StatisticConformance.problems(of: CareStatisticsModule.self) == [])
    }
}
