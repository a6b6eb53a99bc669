import Testing
import TrendStatistics

@Test func moduleIsNamedAfterItsFolder() {
    #expect(TrendStatisticsModule.name == "TrendStatistics")
}
