import Foundation

/// The importers that ship with Stillpoint.
///
/// ```swift
/// let importer = SessionImporters.type(withID: "apple-health")?.init()
/// SessionImporters.builtIn.map { $0.id }
/// // ["insight-timer", "apple-health", "meditation-helper", "garmin", "strava", "csv"]
/// ```
public enum SessionImporters {
    /// Every built-in importer, in the order a menu lists them.
    public static let builtIn: [any SessionImporter.Type] = [
        InsightTimerImporter.self,
        AppleHealthImporter.self,
        MeditationHelperImporter.self,
        GarminImporter.self,
        StravaImporter.self,
        GenericCSVImporter.self,
    ]

    /// The built-in importer with this identifier, if any.
    public static func type(withID id: String) -> (any SessionImporter.Type)? {
        builtIn.first { $0.id == id }
    }

    /// The built-in importer with this identifier, its wall-clock times read in `timeZone` (a practitioner's home
    /// zone; `nil`: as the wall-clock times the person saw, ``WallClockTime``), with its other options at their
    /// defaults (a CSV file's columns `start` and `duration` in seconds); `nil` for an identifier that is none.
    ///
    /// ```swift
    /// let importer = SessionImporters.importer(withID: "insight-timer", timeZone: TimeZone(identifier: "Europe/Berlin"))
    /// ```
    public static func importer(withID id: String, timeZone: TimeZone?) -> (any SessionImporter)? {
        switch id {
        case InsightTimerImporter.id: InsightTimerImporter(timeZone: timeZone)
        case AppleHealthImporter.id: AppleHealthImporter()
        case MeditationHelperImporter.id: MeditationHelperImporter(timeZone: timeZone)
        case GarminImporter.id: GarminImporter(timeZone: timeZone)
        case StravaImporter.id: StravaImporter(timeZone: timeZone)
        case GenericCSVImporter.id:
            {
                var importer = GenericCSVImporter()
                importer.timeZone = timeZone
                return importer
            }()
        default: nil
        }
    }
}
