import PracticeLog
import StillpointStatistics

extension Streak {
    /// The run as a report shows it: `{start, end, length}`, its length in days.
    ///
    /// ```swift
    /// Streak(start: LocalDay("2024-03-11")!, end: LocalDay("2024-03-15")!).value["length"]   // .quantity(5, .days)
    /// ```
    public var value: StatisticValue {
        .record([
            StatisticField("start", .day(start)),
            StatisticField("end", .day(end)),
            StatisticField("length", .quantity(Double(length), .days)),
        ])
    }

    /// `2024-03-11 through 2024-03-15`, for notes.
    var dates: String {
        "\(start) through \(end)"
    }
}
