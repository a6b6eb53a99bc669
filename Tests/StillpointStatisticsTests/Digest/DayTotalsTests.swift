import PracticeLog
@testable import StillpointStatistics
import Testing

@Suite struct DayTotalsTests {
    @Test func onlyTheDaysWithSessionsAreHeld() {
        var totals = DayTotals()
        // Ten years, practised every other day: an array over every day (as before) would hold 3,650 of them.
        for day in stride(from: 10_000, to: 13_650, by: 2) { totals.add(day: day, sessions: 1, seconds: 600) }
        totals.trimCapacity()
        #expect(totals.days.count == 1_825)
        #expect(totals.days.capacity * MemoryLayout<DayTotals.Day>.stride <= 1_825 * 16)
        #expect(totals.tallies.first == DayTally(day: LocalDay(dayNumber: 10_000), tally: SessionTally(count: 1, time: 600)))
    }

    @Test func daysAddedOutOfOrderAndCountedOutAreSummedAsTheyWouldBeInOrder() {
        var totals = DayTotals()
        totals.add(day: 20, sessions: 1, seconds: 60.5)
        totals.add(day: 5, sessions: 1, seconds: 30)
        totals.add(day: 12, sessions: 1, seconds: 10)
        totals.add(day: 20, sessions: 1, seconds: 0.25)
        totals.add(day: 12, sessions: -1, seconds: -10)  // the day's last session deleted: the day leaves
        #expect(totals.tallies == [
            DayTally(day: LocalDay(dayNumber: 5), tally: SessionTally(count: 1, time: 30)),
            DayTally(day: LocalDay(dayNumber: 20), tally: SessionTally(count: 2, time: 60.75)),
        ])
        #expect(totals.days.map(\.number) == [5, 20])
    }

    @Test func daysBeyondThirtyTwoBitsAreKeptBesideTheArrayInOrder() {
        var totals = DayTotals()
        let far = Int(Int32.max) + 1, before = Int(Int32.min) - 1
        totals.add(day: Int(Int32.max), sessions: 1, seconds: 1)
        totals.add(day: far, sessions: 1, seconds: 2)
        totals.add(day: before, sessions: 1, seconds: 3)
        totals.add(day: 0, sessions: 1, seconds: 4)
        #expect(totals.tallies.map(\.day.dayNumber) == [before, 0, Int(Int32.max), far])
        #expect(totals.days.count == 2)
        totals.add(day: far, sessions: -1, seconds: -2)
        #expect(totals.tallies.map(\.day.dayNumber) == [before, 0, Int(Int32.max)])
    }

    @Test func aDayAddedToKeptTotalsGrowsTheirRoomByALittleNotTwice() {
        var totals = DayTotals()
        for day in 0..<1_600 { totals.add(day: day, sessions: 1, seconds: 60) }
        totals.trimCapacity()
        totals.add(day: 2_000, sessions: 1, seconds: 60)
        #expect(totals.days.capacity < 1_800)
    }
}
