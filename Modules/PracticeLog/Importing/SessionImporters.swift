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
}
