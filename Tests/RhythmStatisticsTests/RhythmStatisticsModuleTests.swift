import Testing
import RhythmStatistics

@Test func moduleIsNamedAfterItsFolder() {
    #expect(RhythmStatisticsModule.name == "RhythmStatistics")
}
