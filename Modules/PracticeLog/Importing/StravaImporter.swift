import Foundation

/// Reads `activities.csv` from Strava's account export: `Yoga` (and `Pilates`, `Meditation`, `Breathwork`)
/// rows, and `Workout`s whose name says yoga or meditation, become sessions; other activities are counted,
/// not imported.
///
/// Columns are found by name, the first of a repeated name (`Elapsed Time` appears twice): `Activity Date`
/// (`Jan 5, 2023, 7:12:34 AM`, in UTC), `Activity Type`, `Elapsed Time` (seconds) and `Activity Name` (kept
/// as the note). The dates are instants: the sessions carry ``timeZone`` when given, and otherwise are
/// counted in the report's zone. Sessions come from the source `strava`.
///
/// ```swift
/// let reader = try StravaImporter().makeRecordReader(url: URL(filePath: "activities.csv"))
/// ```
public struct StravaImporter: SessionImporter {
    public static let id = "strava"

    /// The zone the person lives in, which the sessions then carry; the dates themselves are UTC.
    public var timeZone: TimeZone?

    public init() {
        timeZone = nil
    }

    public init(timeZone: TimeZone?) {
        self.timeZone = timeZone
    }

    public func makeRecordReader(url: URL) throws -> SessionRecordReader {
        let (rows, columns) = try ActivityListHeader.read(
            url: url, format: "a Strava activities.csv",
            type: "Activity Type", date: "Activity Date", duration: "Elapsed Time", name: "Activity Name",
            suggestion: "Use activities.csv from the zip of Strava's account export "
                + "(Settings → My Account → Download or Delete Your Account).")
        let days = timeZone.map { "counted in \($0.identifier) (--time-zone)" }
            ?? "counted in the report's zone (--time-zone Europe/Berlin to count them in yours)"
        return SessionRecordReader(url: url, source: ActivityListEventSource(rows: rows, columns: columns, service: .strava(timeZone)),
                                   timeRule: "Strava times are in UTC: days and hours are " + days)
    }
}

extension SessionImporter where Self == StravaImporter {
    /// Strava's activities.csv, counted in the report's zone.
    public static var strava: StravaImporter { StravaImporter() }
}
