import StillpointTestSupport
import StillpointStatistics
import Testing
import RhythmStatistics

@Suite("RhythmStatisticsModule")
struct RhythmStatisticsModuleTests {
    @Test func moduleIsNamedAfterItsFolder() {
        #expect(RhythmStatisticsModule.name == "RhythmStatistics")
    }

    @Test func listsItsStatistics() {
        #expect(RhythmStatisticsModule.statistics.map(\.id) == ["sessions_by_weekday", "sessions_by_hour"])
    }
}
