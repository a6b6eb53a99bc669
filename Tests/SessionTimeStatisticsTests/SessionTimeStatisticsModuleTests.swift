import Testing
import SessionTimeStatistics

@Test func moduleIsNamedAfterItsFolder() {
    #expect(SessionTimeStatisticsModule.name == "SessionTimeStatistics")
}
