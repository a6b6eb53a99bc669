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
        #expect(moduleListingProblems(SessionTimeStatisticsModule.self) == [])
    }
}
