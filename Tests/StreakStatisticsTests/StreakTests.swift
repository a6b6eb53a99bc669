import Foundation
import PracticeLog
import StreakStatistics
import Testing

@Suite("Streak")
struct StreakTests {
    /// A module of someone else's may make a streak with its ends swapped: it is the same run, not a trap.
    @Test func endsGivenTheOtherWayRoundMakeTheSameRun() throws {
        let earlier = try #require(LocalDay("2024-03-11")), later = try #require(LocalDay("2024-03-15"))
        let swapped = Streak(start: later, end: earlier)
        #expect(swapped == Streak(start: earlier, end: later))
        #expect(swapped.length == 5)
    }
}
