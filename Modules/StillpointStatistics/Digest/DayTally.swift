import PracticeLog

/// The sessions of one local day: how many and how long.
public struct DayTally: Sendable, Hashable {
    public var day: LocalDay
    public var tally: SessionTally

    public init(day: LocalDay, tally: SessionTally) {
        self.day = day
        self.tally = tally
    }
}
