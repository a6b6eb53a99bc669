import Testing
import TotalStatistics

@Test func moduleIsNamedAfterItsFolder() {
    #expect(TotalStatisticsModule.name == "TotalStatistics")
}
