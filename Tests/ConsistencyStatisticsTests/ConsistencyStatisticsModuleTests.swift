import Testing
import ConsistencyStatistics

@Test func moduleIsNamedAfterItsFolder() {
    #expect(ConsistencyStatisticsModule.name == "ConsistencyStatistics")
}
