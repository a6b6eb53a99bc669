import Foundation

/// Reads the `Activities.csv` Garmin Connect's activity list downloads: yoga, breathwork, meditation and
/// pilates rows become sessions; runs, rides and every other activity are counted, not imported.
///
/// Columns are found by name: `Activity Type`, `Date` (`yyyy-MM-dd HH:mm:ss`, the wall-clock time on the
/// watch, read by the ``WallClockTime`` rule), `Time` (`HH:mm:ss`, maybe with a fraction) and `Title`
/// (kept as the note). Sessions come from the source `garmin_connect`.
///
/// ```swift
/// let reader = try GarminImporter().makeRecordReader(url: URL(filePath: "Activities.csv"))
/// ```
public struct GarminImporter: SessionImporter {
    public static let id = "garmin"

    /// The zone the `Date`s are in, which the records then carry; `nil` keeps them as the wall-clock times
    /// the person saw.
    public var timeZone: TimeZone?

    public init() {
        timeZone = nil
    }

    public init(timeZone: TimeZone?) {
        self.timeZone = timeZone
    }

    public func makeRecordReader(url: URL) throws -> SessionRecordReader {
        let (rows, columns) = try ActivityListHeader.read(
            url: url, format: "a Garmin Connect activity list (Activities.csv)",
            type: "Activity Type", date: "Date", duration: "Time", name: "Title",
            suggestion: "Download the activity list from Garmin Connect (Activities → All Activities → Export CSV).")
        let wallClock = WallClockTime(zone: timeZone)
        return SessionRecordReader(url: url, source: ActivityListEventSource(rows: rows, columns: columns, service: .garmin(wallClock)),
                                   timeRule: wallClock.rule(format: "Garmin Connect"))
    }
}

extension SessionImporter where Self == GarminImporter {
    /// Garmin Connect's activity list, with times kept as the wall-clock times the person saw.
    public static var garmin: GarminImporter { GarminImporter() }
}
