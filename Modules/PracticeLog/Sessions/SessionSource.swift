/// The names people know the importers' sources by, for reports: the stored source stays the stable
/// `snake_case` value that is part of every session's key.
///
/// ```swift
/// SessionSource.displayName(of: "insight_timer")   // "Insight Timer"
/// SessionSource.displayName(of: "Apple Watch")     // nil: an Apple Health source is already a name
/// ```
public enum SessionSource {
    /// Display names of the sources the built-in importers write.
    public static let displayNames: [String: String] = [
        "insight_timer": "Insight Timer",
        "meditation_helper": "Meditation Helper",
        "garmin_connect": "Garmin Connect",
        "strava": "Strava",
        "csv": "CSV",
    ]

    /// The display name of a known source, or `nil` for any other text.
    public static func displayName(of source: String) -> String? {
        displayNames[source]
    }
}
