import StillpointTestSupport
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
}
