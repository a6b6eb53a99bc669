import Testing
import StreakStatistics

@Test func moduleIsNamedAfterItsFolder() {
    #expect(StreakStatisticsModule.name == "StreakStatistics")
}
